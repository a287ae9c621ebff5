/**
 * A request's names checked against what AUTOMATIC1111 listed (`listNames`), before the run:
 * the lists the settings or the server already hold, so a missing file is a problem of its field
 * at planning time. The lists are names as a person knows them (a checkpoint's title without its
 * hash), so a name is taken when it is one of the ways AUTOMATIC1111 finds that file; the exact
 * check with every id still runs before sending (check.ts).
 */
import type { FieldIssue } from '../../issues';
import { missingNames, sameStem, type NeededName } from '../known-names';
import type { BackendNames } from '../types';
import type { NameNeeds } from './translate';

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;
const withoutHash = (name: string) => name.replace(/ \[[^\]]*\]$/, '');

/** Whether `listed` (a name from listNames) is a way of naming the file `need` asks for. */
function answersTo(need: NeededName, listed: string): boolean {
  if (need.name === listed) return true;
  switch (need.list) {
    case 'checkpoints':
      // Its title, its title with the hash, or its file name with or without the extension.
      return withoutHash(need.name) === listed || sameStem(baseName(withoutHash(need.name)), baseName(listed));
    case 'controlnets':
      return withoutHash(listed).toLowerCase() === need.name.toLowerCase();
    case 'vaes':
      return need.name === 'Automatic' || need.name === 'None';
    default:
      return false;
  }
}

/** The names `needs` asks for that AUTOMATIC1111's lists lack; an unknown list says nothing. */
export function missingFromLists(engine: string, needs: NameNeeds, listed: BackendNames | undefined): FieldIssue[] {
  const asked: NeededName[] = [
    ...(needs.checkpoint === undefined ? [] : [{ ...needs.checkpoint, list: 'checkpoints' as const }]),
    ...(needs.refiner === undefined ? [] : [{ ...needs.refiner, list: 'checkpoints' as const, fromSettings: true }]),
    ...(needs.vae === undefined ? [] : [{ ...needs.vae, list: 'vaes' as const }]),
    ...needs.loras.map((n) => ({ ...n, list: 'loras' as const })),
    ...needs.embeddings.map((n) => ({ ...n, list: 'embeddings' as const })),
    ...(needs.controlnet === undefined ? [] : [{ ...needs.controlnet, list: 'controlnets' as const }]),
  ];
  return missingNames(engine, asked, listed, answersTo);
}
