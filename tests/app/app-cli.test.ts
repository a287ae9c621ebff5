/**
 * A workflow's app on the command line: `run FILE --help` lists the inputs with kinds and
 * defaults, `--input NAME=VALUE` reaches the parameter the input names (read by its kind), and
 * mistakes are usage errors that name the input.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { example, readManifest, runCli, tempDir } from '../cli/helpers';

describe('atelier run FILE --help', () => {
  it('lists the app inputs with their labels, kinds and defaults, and the outputs', async () => {
    const { code, stdout } = await runCli(['run', example('chat-to-image'), '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--input subject=VALUE');
    expect(stdout).toContain('What should the picture show? (text; default "a lighthouse on a rocky cliff at dusk")');
    expect(stdout).toContain('--input seed=VALUE');
    expect(stdout).toMatch(/Seed \(same seed, same picture\) \(integer; default 1234\)/);
    expect(stdout).toMatch(/Outputs:\n {2}Pictures/);
  });

  it('says so for a workflow without an app', async () => {
    const { code, stdout } = await runCli(['run', example('fan-out'), '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/no app inputs/);
  });

  it('plain --help is still the general usage', async () => {
    const { stdout } = await runCli(['--help']);
    expect(stdout).toMatch(/^Usage: atelier run <workflow.json>/);
    expect(stdout).toContain('--input NAME=VALUE');
  });
});

describe('--input NAME=VALUE', () => {
  it('fills the inputs by name: the text reaches the prompt, the number the seed', async () => {
    const run = await runCli(['run', example('chat-to-image'), '--input', 'subject=42 red foxes', '--input', 'seed=77', '--out', 'out']);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const manifest = readManifest(join(run.cwd, 'out'));
    const text = JSON.stringify(manifest);
    // The subject travels into the chat request; the seed into the image request.
    expect(text).toContain('42 red foxes');
    expect(text).toMatch(/"seed":\s*77/);
  });

  it.each([
    [['--input', 'colour=red'], /--input colour: no such input; its inputs are subject, seed/],
    [['--input', 'seed=abc'], /--input seed takes a number/],
    [['--input', 'seed=1.5'], /--input seed takes a whole number/],
    [['--input', 'seed=1', '--input', 'seed=2'], /--input seed is given twice/],
    [['--input', 'nothing'], /is not NAME=VALUE/],
  ])('%j is a usage error naming the input', async (flags, message) => {
    const { code, stderr } = await runCli(['run', example('chat-to-image'), ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('an input named like a prototype member is just an unknown input', async () => {
    const { code, stderr } = await runCli(['run', example('chat-to-image'), '--input', '__proto__=x']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/no such input/);
  });

  it('an image input takes a file path, and --set still has the last word', async () => {
    const dir = tempDir();
    const wf = JSON.parse(readFileSync(example('controlnet-from-image'), 'utf8')) as { nodes: { id: string; type: string }[]; app?: unknown };
    const loader = wf.nodes.find((n) => n.type === 'image-loader')!;
    const control = wf.nodes.find((n) => n.type === 'controlnet')!;
    wf.app = { inputs: [{ name: 'picture', node: loader.id, param: 'image' }, { name: 'seed', node: control.id, param: 'seed' }], outputs: [] };
    writeFileSync(join(dir, 'app.json'), JSON.stringify(wf));
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#08f' } }).png().toBuffer();
    writeFileSync(join(dir, 'mine.png'), png);

    const bad = await runCli(['run', 'app.json', '--input', 'picture=nope.png'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--input picture: cannot read nope.png: no such file/);

    const run = await runCli(['run', 'app.json', '--input', 'picture=mine.png', '--input', 'seed=5', '--set', `${control.id}.seed=6`, '--out', 'o'], { cwd: dir });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const text = JSON.stringify(readManifest(join(dir, 'o')));
    // The control image sent is the file given, byte for byte.
    expect(text).toContain(createHash('sha256').update(png).digest('hex'));
    expect(text).toMatch(/"seed":\s*6/);
  });
});

describe('an app over components, with an entry that points at nothing', () => {
  /** The restyle-component example with an app: the light restyle's strength (on its face), and `gone` (no longer on it). */
  function appFile(): string {
    const dir = tempDir();
    const wf = JSON.parse(readFileSync(example('restyle-component'), 'utf8')) as { app?: unknown };
    wf.app = {
      inputs: [
        { name: 'strength', node: 'watercolour-restyle-1', param: 'strength' },
        { name: 'gone', node: 'restyle-heavy', param: 'steps' },
      ],
      outputs: [{ node: 'preview-light' }],
    };
    writeFileSync(join(dir, 'app.json'), JSON.stringify(wf));
    return dir;
  }

  it('--help lists an input on a component\'s field by its kind, and says which entry cannot be set and why', async () => {
    const { code, stdout } = await runCli(['run', 'app.json', '--help'], { cwd: appFile() });
    expect(code).toBe(0);
    expect(stdout).toContain('--input strength=VALUE');
    expect(stdout).toMatch(/› How far it may move \(number; default 0\.3\)/);
    expect(stdout).toContain("gone: cannot be set: input 'gone': node 'restyle-heavy' (Watercolour restyle) has no parameter 'steps'");
  });

  it('a run fills the component\'s field and warns that the stale entry is ignored; --input naming it is a usage error', async () => {
    const cwd = appFile();
    const run = await runCli(['run', 'app.json', '--input', 'strength=0.55', '--out', 'o'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("warning: app.json: app.inputs[1]: input 'gone': node 'restyle-heavy' (Watercolour restyle) has no parameter 'steps': this app input is ignored");
    expect(JSON.stringify(readManifest(join(cwd, 'o')))).toMatch(/"strength":\s*0\.55/);

    const bad = await runCli(['run', 'app.json', '--input', 'gone=3'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--input gone: input 'gone': node 'restyle-heavy' (Watercolour restyle) has no parameter 'steps'");
  });
});
