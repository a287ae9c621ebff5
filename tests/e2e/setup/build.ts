/**
 * Builds the editor into dist/ when the build is missing or older than anything it is built from
 * (scripts/build-if-stale.mjs: the same rule and code as `npm start`), so the e2e tests, the
 * editor bench and the screenshots always drive the current sources.
 */
import { buildEditorIfStale as build } from '../../../scripts/build-if-stale.mjs';

/** Runs `vite build` quietly when dist/ is stale; returns whether it built. Throws with vite's output on failure. */
export function buildEditorIfStale(root: string): boolean {
  return build(root, { quiet: true });
}
