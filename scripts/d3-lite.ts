/**
 * A Vite plugin that gives React Flow's d3 modules the editor's smaller stand-ins for two of their
 * imports (src/canvas/d3-lite/): `d3-transition` (React Flow's animated view changes need a
 * fraction of it) and `d3-interpolate` (for its generic `interpolate`, which brings d3-color).
 * About 11 kB gzipped less at the page's start. The stand-ins' own imports of the real packages
 * are left alone. Used by the build, the dev server and the unit tests (vitest.config.ts), so the
 * tests of the stand-ins run d3-zoom against them as the page does.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const LITE_DIR = fileURLToPath(new URL('../src/canvas/d3-lite/', import.meta.url));
const STAND_INS: Readonly<Record<string, string>> = {
  'd3-transition': `${LITE_DIR}transition.ts`,
  'd3-interpolate': `${LITE_DIR}interpolate.ts`,
};

export function d3Lite(): Plugin {
  return {
    name: 'atelier:d3-lite',
    enforce: 'pre',
    resolveId(source, importer) {
      const standIn = STAND_INS[source];
      if (standIn === undefined || importer === undefined) return null;
      if (importer.replaceAll('\\', '/').startsWith(LITE_DIR.replaceAll('\\', '/'))) return null;
      return standIn;
    },
  };
}
