/**
 * Names a request needs on a backend (a checkpoint, a LoRA file…), checked against what the
 * backend listed before anything is sent. The same words as the backend's own refusal ("has no
 * checkpoint 'x'; did you mean 'y'? it has: …"), so a mistake reads alike whether it is
 * caught before the run or by the backend. A list that is not known is not checked: nothing is
 * guessed.
 */
import { closestName } from '../closest-name';
import type { FieldIssue } from '../issues';
import type { BackendNames } from './types';

/** One backend-side name a request would send, and where it came from. */
export interface NeededName {
  /** The request field it stands for (`checkpoint`, `use_refiner`, `loras.svc:detail`). */
  field: string;
  /** The list of BackendNames it must be in. */
  list: Exclude<keyof BackendNames, 'samplers' | 'models'>;
  name: string;
  /** Taken from the backend's settings (the checkpoint for an engine, the refiner), not the node. */
  fromSettings?: boolean;
}

/** How each list names one of its members, to a person. */
export const NAME_KIND: Record<NeededName['list'], string> = {
  checkpoints: 'checkpoint', loras: 'LoRA', vaes: 'VAE', embeddings: 'embedding', controlnets: 'ControlNet',
};

const SHOWN_NAMES = 30;

/** "it has: a, b and 3 more", or "it has none". */
export function listedNames(names: readonly string[]): string {
  if (names.length === 0) return 'it has none';
  const shown = names.slice(0, SHOWN_NAMES).join(', ');
  return `it has: ${shown}${names.length > SHOWN_NAMES ? ` and ${names.length - SHOWN_NAMES} more` : ''}`;
}

const stem = (file: string) => file.replace(/\.[a-z0-9]+$/i, '');

/** The file probably meant, comparing names without their extension (`x.ckpt` for `x.safetensors`). */
export function likelyMeant(name: string, names: readonly string[]): string | undefined {
  const stems = names.map(stem);
  const exact = stems.findIndex((s) => s.toLowerCase() === stem(name).toLowerCase());
  if (exact >= 0) return names[exact];
  const close = closestName(stem(name), stems);
  return close === undefined ? undefined : names[stems.indexOf(close)];
}

/** "did you mean 'y'? it has: …" for a name the backend lacks. */
export function suggestion(name: string, names: readonly string[]): string {
  const guess = likelyMeant(name, names);
  return `${guess === undefined ? '' : `did you mean '${guess}'? `}${listedNames(names)}`;
}

/**
 * Each needed name missing from the list the backend gave, as a problem of its request field.
 * `matches` says whether a listed name is the one needed (exact by default; a backend that finds
 * files more loosely passes its own rule). Lists the backend did not give are not checked.
 */
export function missingNames(
  engine: string,
  needs: readonly NeededName[],
  listed: BackendNames | undefined,
  matches: (need: NeededName, listedName: string) => boolean = (need, listedName) => need.name === listedName,
): FieldIssue[] {
  if (listed === undefined) return [];
  const issues: FieldIssue[] = [];
  for (const need of needs) {
    const names = listed[need.list];
    if (names === undefined || names.some((n) => matches(need, n))) continue;
    const what = need.field === 'use_refiner' ? 'refiner checkpoint' : NAME_KIND[need.list];
    const from = need.fromSettings === true ? ` (the ${what} set for ${engine} in the backend's settings)` : '';
    issues.push({ path: need.field, message: `it has no ${NAME_KIND[need.list]} '${need.name}'${from}; ${suggestion(need.name, names)}` });
  }
  return issues;
}

/** Whether two file names are the same but for their extension, in any case (how embeddings are listed). */
export const sameStem = (a: string, b: string): boolean => stem(a).toLowerCase() === stem(b).toLowerCase();
