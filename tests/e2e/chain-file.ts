/** Workflow files the e2e tests open through File → Open. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../../workflow/schema';

export interface ChainFile {
  title: string;
  /** The file's name inside the test's folder. */
  file: string;
  /** The prompt of the first node, "Draw" (text to image, seed 21). */
  draw: string;
  /** The second node (seed 22), fed Draw's image. */
  then: { id: string; type: string; title: string; prompt: string };
}

/** A version 1 workflow titled `title`, dated the same fixed day as every file written here. */
export function workflowFile(title: string, nodes: Workflow['nodes'], edges: Workflow['edges']): Workflow {
  const at = '2026-01-01T00:00:00.000Z';
  return { format: 'atelier.workflow', version: 1, metadata: { title, description: '', created: at, modified: at }, nodes, edges };
}

/** Writes Draw → `then` → preview "Show" on SD 1.5 (512×512, 4 steps: quick on the local engines) into `dir`; returns its path. */
export function writeChainFile(dir: string, chain: ChainFile): string {
  const { then } = chain;
  const workflow = workflowFile(chain.title, [
    { id: 'draw', type: 'text-to-image', title: 'Draw', position: { x: 0, y: 0 }, params: { engine: 'sd', prompt: chain.draw, seed: 21, steps: 4 } },
    { id: then.id, type: then.type, title: then.title, position: { x: 380, y: 0 }, params: { engine: 'sd', prompt: then.prompt, seed: 22, steps: 4 } },
    { id: 'show', type: 'preview', title: 'Show', position: { x: 760, y: 0 }, params: {} },
  ], [
    { id: 'e1', source: { node: 'draw', port: 'image' }, target: { node: then.id, port: 'image' } },
    { id: 'e2', source: { node: then.id, port: 'image' }, target: { node: 'show', port: 'value' } },
  ]);
  const path = join(dir, chain.file);
  writeFileSync(path, JSON.stringify(workflow, null, 2));
  return path;
}
