/**
 * What a node's form asks of the run worker, which holds what the page does not load: the node
 * types' own checks (with the image request rules) and the CLIP token count. The app provides it
 * from the run side (src/run/form-checks.ts); without it a form shows neither.
 */
import { createContext } from 'react';
import type { ParamProblem } from '../../workers/params';

export interface FormChecks {
  /**
   * A node's parameter problems, as a run finds them (the schema, then the node's own validate);
   * undefined for a type this build does not know.
   */
  paramProblems(nodeType: string, params: Record<string, unknown>, connected: readonly string[], fromPorts: readonly string[]): Promise<readonly ParamProblem[] | undefined>;
  /** The CLIP tokens of a prompt, counted as the service counts. */
  promptTokens(prompt: string): Promise<number>;
}

export const FormChecksContext = createContext<FormChecks | null>(null);
