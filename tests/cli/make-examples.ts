/**
 * Writes public/examples/*.json and index.json: the example workflows of the editor's Examples
 * menu, which the CLI tests also run. The small embedded images (a mask, a picture with clear
 * shapes, two subject samples) are drawn here with sharp from SVG, so they stay a few KB.
 *
 *   npx tsx tests/cli/make-examples.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { registry } from '../../nodes/index';
import { componentExamples } from './component-examples';
import { loadWorkflow, serializeWorkflow, type Workflow, type WorkflowEdge, type WorkflowNode } from '../../workflow/index';
import { comfyExamples } from './comfy-examples';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const OUT = join(ROOT, 'public', 'examples');
const STAMP = '2026-01-15T10:00:00.000Z';
/** Columns and rows of the editor's canvas, so every example reads left to right. */
const COL = 380;
const ROW = 960;

type Params = Record<string, unknown>;
const at = (col: number, row = 0) => ({ x: col * COL, y: row * ROW });
const node = (id: string, type: string, title: string, position: { x: number; y: number }, params: Params): WorkflowNode =>
  ({ id, type, title, position, params });
const edge = (source: string, sourcePort: string, target: string, targetPort: string): WorkflowEdge => ({
  id: `${source}:${sourcePort}->${target}:${targetPort}`,
  source: { node: source, port: sourcePort },
  target: { node: target, port: targetPort },
});
/** A node that pairs the items of its lists every way (cross product) rather than item by item. */
const crossing = (n: WorkflowNode): WorkflowNode => ({ ...n, fanOut: 'cross' });
const workflow = (title: string, description: string, nodes: WorkflowNode[], edges: WorkflowEdge[]): Workflow => ({
  format: 'atelier.workflow', version: 1, metadata: { title, description, created: STAMP, modified: STAMP }, nodes, edges,
});

async function embed(svg: string, name: string, format: 'png' | 'jpeg', width: number, height: number) {
  const image = sharp(Buffer.from(svg));
  const data = format === 'png' ? await image.png({ compressionLevel: 9, palette: true }).toBuffer() : await image.jpeg({ quality: 78 }).toBuffer();
  return { image: { b64: data.toString('base64'), mime: `image/${format}`, name, width, height } };
}

/** The sky of a 1152x896 picture, at an eighth of the size: white is repainted. */
const maskSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="144" height="112">
  <rect width="144" height="112" fill="#000"/><ellipse cx="72" cy="22" rx="66" ry="26" fill="#fff"/></svg>`;

/** Bold outlines on black: what a canny edge map follows. */
const shapesSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">
  <rect width="128" height="128" fill="#111"/>
  <circle cx="40" cy="40" r="24" fill="none" stroke="#fff" stroke-width="6"/>
  <polygon points="92,14 120,62 64,62" fill="none" stroke="#fff" stroke-width="6"/>
  <rect x="20" y="78" width="88" height="36" fill="none" stroke="#fff" stroke-width="6"/></svg>`;

/** A small red robot toy, seen twice: the subject of the transfer. */
const robotSvg = (bg: string, tilt: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">
  <rect width="96" height="96" fill="${bg}"/>
  <g transform="rotate(${tilt} 48 52)">
    <rect x="30" y="18" width="36" height="28" rx="6" fill="#d22"/>
    <circle cx="40" cy="31" r="5" fill="#fff"/><circle cx="56" cy="31" r="5" fill="#fff"/>
    <rect x="26" y="48" width="44" height="32" rx="4" fill="#b11"/>
    <rect x="46" y="8" width="4" height="10" fill="#333"/></g></svg>`;

async function main(): Promise<void> {
  const mask = await embed(maskSvg, 'sky-mask.png', 'png', 144, 112);
  const shapes = await embed(shapesSvg, 'shapes.png', 'png', 128, 128);
  const robotA = await embed(robotSvg('#e8e4da', 0), 'robot-front.jpg', 'jpeg', 96, 96);
  const robotB = await embed(robotSvg('#cfe0ea', -12), 'robot-tilted.jpg', 'jpeg', 96, 96);

  const examples: { file: string; workflow: Workflow }[] = [
    { file: 'chat-to-image.json', workflow: workflow('Chat to image',
      'A chat model turns a subject into a vivid image prompt, and SDXL draws it. Change the subject and run again.', [
        node('subject', 'text', 'Subject', at(0), { text: 'a lighthouse on a rocky cliff at dusk' }),
        node('writer', 'chat-prompt-writer', 'Prompt writer', at(1), {
          user: 'Write an image prompt about {{subject}}.', max_tokens: 120, temperature: 0.7,
        }),
        node('draw', 'text-to-image', 'Draw it (SDXL)', at(2), { engine: 'sdxl', width: 1216, height: 832, seed: 1234, num_images: 2, steps: 30 }),
        node('preview', 'preview', 'Preview', at(3), {}),
      ], [edge('subject', 'text', 'writer', 'subject'), edge('writer', 'text', 'draw', 'prompt'), edge('draw', 'images', 'preview', 'value')]) },

    { file: 'restyle-chain.json', workflow: workflow('Restyle chain',
      'Text to image, then image to image in a watercolour style, then inpainting repaints the sky through a mask.', [
        node('draw', 'text-to-image', 'Draw', at(0), {
          engine: 'sdxl', width: 1152, height: 896, seed: 7, prompt: 'a harbour town with fishing boats, morning light',
        }),
        node('restyle', 'image-to-image', 'Restyle', at(1), {
          engine: 'sdxl', width: 1152, height: 896, seed: 8, strength: 0.55, style_preset: 'Watercolor',
          prompt: 'a harbour town with fishing boats, watercolour painting',
        }),
        node('mask', 'image-loader', 'Sky mask', at(1, 1), mask),
        node('sky', 'inpaint', 'Repaint the sky', at(2), {
          engine: 'sdxl', width: 1152, height: 896, seed: 9, prompt: 'a dramatic sunset sky with pink clouds',
        }),
        node('preview', 'preview', 'Preview', at(3), {}),
      ], [
        edge('draw', 'image', 'restyle', 'image'), edge('restyle', 'image', 'sky', 'image'), edge('mask', 'image', 'sky', 'mask'),
        edge('sky', 'image', 'preview', 'value'),
      ]) },

    { file: 'controlnet-from-image.json', workflow: workflow('ControlNet from an image',
      'The edges of a loaded picture (canny) guide SDXL: the circle, triangle and box stay where they are.', [
        node('shapes', 'image-loader', 'Shapes', at(0), shapes),
        node('guided', 'controlnet', 'ControlNet (canny)', at(1), {
          engine: 'controlnet-sdxl', controlnet: 'svc:canny_sdxl', width: 1024, height: 1024, seed: 42,
          prompt: 'a stained glass window with a circle, a triangle and a panel, vivid colours',
        }),
        node('preview', 'preview', 'Preview', at(2), {}),
      ], [edge('shapes', 'image', 'guided', 'control_image'), edge('guided', 'image', 'preview', 'value')]) },

    { file: 'subject-transfer.json', workflow: workflow('Subject transfer',
      'Two photos of a toy robot are carried into a new scene; the prompt calls the robot by its trigger word.', [
        node('front', 'image-loader', 'Robot, front', at(0), robotA),
        node('tilted', 'image-loader', 'Robot, tilted', at(0, 1), robotB),
        node('merge', 'merge', 'Merge', at(1), {
          engine: 'sdxl', width: 1024, height: 1024, seed: 5, trigger_word: 'sks', prompt: 'a photo of sks robot on a sandy beach',
        }),
        node('preview', 'preview', 'Preview', at(2), {}),
      ], [edge('front', 'image', 'merge', 'sample_1'), edge('tilted', 'image', 'merge', 'sample_2'), edge('merge', 'image', 'preview', 'value')]) },

    { file: 'fan-out.json', workflow: workflow('Fan-out: SDXL and SD 1.5',
      'One prompt drawn by SDXL and by SD 1.5 in parallel, to compare the engines side by side.', [
        node('prompt', 'text', 'Prompt', at(0, 0.7), { text: 'a red fox in the snow, morning light, detailed fur' }),
        node('sdxl', 'text-to-image', 'SDXL', at(1), { engine: 'sdxl', width: 1024, height: 1024, seed: 11 }),
        node('sd15', 'text-to-image', 'SD 1.5', at(1, 1.4), { engine: 'sd', width: 512, height: 768, seed: 11 }),
        node('preview-sdxl', 'preview', 'Preview SDXL', at(2), {}),
        node('preview-sd15', 'preview', 'Preview SD 1.5', at(2, 1.4), {}),
      ], [
        edge('prompt', 'text', 'sdxl', 'prompt'), edge('prompt', 'text', 'sd15', 'prompt'),
        edge('sdxl', 'image', 'preview-sdxl', 'value'), edge('sd15', 'image', 'preview-sd15', 'value'),
      ]) },

    { file: 'variations.json', workflow: workflow('Eight variations from one idea',
      'A chat model writes eight prompts on one idea, one per line; each is drawn, and the preview shows all eight.', [
        node('idea', 'text', 'Idea', at(0), { text: 'a cabin in the woods' }),
        node('writer', 'chat-prompt-writer', 'Eight prompts', at(1), {
          user: 'Write eight image prompts, each a different take on {{idea}}.', answer_as: 'lines', max_tokens: 900, temperature: 0.8,
        }),
        node('draw', 'text-to-image', 'Draw each', at(2), { engine: 'sd', width: 512, height: 512, seed: 21, steps: 20 }),
        node('preview', 'preview', 'All eight', at(3), {}),
      ], [edge('idea', 'text', 'writer', 'idea'), edge('writer', 'items', 'draw', 'prompt'), edge('draw', 'image', 'preview', 'value')]) },

    { file: 'shot-list.json', workflow: workflow('A shot list as a contact sheet',
      'A numbered shot list is split into shots, each drawn, and tiled into one contact sheet captioned with its shot.', [
        node('shots', 'text', 'Shot list', at(0), {
          text: [
            'Shots for a lighthouse at dusk:', '1. Wide shot: the lighthouse on its cliff, the sea below',
            '2. Close-up: the lamp room glowing amber', '3. Low angle: waves breaking on black rocks under the tower',
            '4. Aerial view: the coastline at dusk,', '   the beam sweeping across the water', '5. Detail: a weathered door with a brass handle',
            '6. Night: the tower under the stars',
          ].join('\n'),
        }),
        node('split', 'split-text', 'One shot each', at(1), { mode: 'numbered' }),
        node('draw', 'text-to-image', 'Draw each shot', at(2), { engine: 'sd', width: 768, height: 512, seed: 8, steps: 20 }),
        node('sheet', 'contact-sheet', 'Contact sheet', at(3), { columns: 3, cell_size: 256 }),
        node('preview', 'preview', 'Preview', at(4), { filename: 'shot-list' }),
      ], [
        edge('shots', 'text', 'split', 'text'), edge('split', 'items', 'draw', 'prompt'), edge('draw', 'image', 'sheet', 'images'),
        edge('split', 'items', 'sheet', 'captions'), edge('sheet', 'image', 'preview', 'value'),
      ]) },

    { file: 'subjects-by-styles.json', workflow: workflow('3 subjects × 3 styles',
      'Three subjects and three styles, crossed: nine prompts, nine pictures, one contact sheet to compare them.', [
        node('subjects', 'text', 'Subjects', at(0), { text: 'a red fox\na lighthouse\na bowl of lemons' }),
        node('styles', 'text', 'Styles', at(0, 1), { text: 'watercolour\nlinocut print\nneon-lit photograph' }),
        node('each-subject', 'split-text', 'Each subject', at(1), {}),
        node('each-style', 'split-text', 'Each style', at(1, 1), {}),
        crossing(node('prompt', 'text', 'Every combination', at(2), { text: '{{subject}}, as a {{style}}' })),
        node('draw', 'text-to-image', 'Draw each', at(3), { engine: 'sd', width: 512, height: 512, seed: 3, steps: 20 }),
        node('sheet', 'contact-sheet', 'Contact sheet', at(4), { columns: 3, cell_size: 224 }),
        node('preview', 'preview', 'Preview', at(5), {}),
      ], [
        edge('subjects', 'text', 'each-subject', 'text'), edge('styles', 'text', 'each-style', 'text'),
        edge('each-subject', 'items', 'prompt', 'subject'), edge('each-style', 'items', 'prompt', 'style'),
        edge('prompt', 'text', 'draw', 'prompt'), edge('draw', 'image', 'sheet', 'images'), edge('prompt', 'text', 'sheet', 'captions'),
        edge('sheet', 'image', 'preview', 'value'),
      ]) },
    ...comfyExamples((file, title, description, nodes, edges) => ({ file, workflow: workflow(title, description, nodes, edges) }), at, node, edge),
  ];

  examples.push(...componentExamples(workflow, node, edge, at));

  // Opens as an app: a person types a subject and gets pictures, without seeing the graph.
  const chat = examples.find((e) => e.file === 'chat-to-image.json')!.workflow;
  chat.app = {
    inputs: [
      { name: 'subject', node: 'subject', param: 'text', label: 'What should the picture show?' },
      { name: 'seed', node: 'draw', param: 'seed', label: 'Seed (same seed, same picture)' },
    ],
    outputs: [{ node: 'preview', label: 'Pictures' }],
  };

  mkdirSync(OUT, { recursive: true });
  const knownTypes = new Set(registry.list().map((d) => d.type));
  for (const { file, workflow: wf } of examples) {
    const text = serializeWorkflow(wf);
    // Each file must open cleanly: no warnings, nothing dropped.
    const { warnings } = loadWorkflow(text, { knownTypes });
    if (warnings.length > 0) throw new Error(`${file}: ${warnings.map((w) => w.message).join('; ')}`);
    writeFileSync(join(OUT, file), text);
    console.log(`${file}: ${text.length} characters`);
  }
  const index = examples.map(({ file, workflow: wf }) => ({ file, title: wf.metadata.title, description: wf.metadata.description }));
  writeFileSync(join(OUT, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
}

await main();
