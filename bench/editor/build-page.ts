/** Builds a bench page (bare React Flow) with Vite into a temporary folder, for the local server to serve. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

export async function buildPage(root: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'atelier-bench-page-'));
  await build({ root, configFile: false, logLevel: 'warn', mode: 'production', plugins: [react()], build: { outDir, emptyOutDir: true, target: 'es2022' } });
  return outDir;
}
