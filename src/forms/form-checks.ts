/**
 * What a prompt field asks of the run worker, which holds what the page does not load: the CLIP
 * word list, for the token count. The app provides it from the run side (src/run/form-checks.ts);
 * without it a prompt shows no count. Parameter problems need no worker: the form checks them
 * itself (issues.ts), with the function a run uses.
 */
import { createContext } from 'react';

export interface FormChecks {
  /** The CLIP tokens of a prompt, counted as the service counts. */
  promptTokens(prompt: string): Promise<number>;
}

export const FormChecksContext = createContext<FormChecks | null>(null);
