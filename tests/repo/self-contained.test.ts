/**
 * The repository stands alone: whoever clones it has only what is in it. So no file in it may
 * send its reader elsewhere: to a shared folder beside the checkout, to numbered points of a
 * conventions list or a design note kept outside, to an issue tracker's numbers, or to the service
 * contract anywhere but its copy in docs/. Comments say the point itself instead.
 *
 * The files are the tracked ones (`git ls-files`); without git (an unpacked archive), every file
 * that .gitignore does not leave out. The patterns are written so that this file does not match.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/config';

/** Pointers outside the repository. The contract's name is allowed only as the repo's own copy. */
const OUTSIDE = /\.\.\/shared\/|CONVENTIONS [0-9§]|DESIGN\.md|\b[Ii]ssue [0-9]+\b|service-interface\.md/g;
const OWN_CONTRACT = 'docs/service-interface.md';
/** Generated, and quoting package names it does not choose. */
const SKIPPED = new Set(['package-lock.json']);

/** Each pointer outside the repository in `text`, as `line: what matched`. */
function pointersOutside(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(OUTSIDE)) {
    const at = match.index;
    if (`docs/${match[0]}` === OWN_CONTRACT && text.slice(at - 'docs/'.length, at) === 'docs/') continue;
    const line = text.slice(0, at).split('\n').length;
    found.push(`${line}: ${match[0]}`);
  }
  return found;
}

/** Directories .gitignore leaves out (its `name/` lines), for a checkout without git. */
function ignoredDirs(): Set<string> {
  const path = join(PROJECT_ROOT, '.gitignore');
  const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : [];
  return new Set(['.git', ...lines.filter((l) => l.endsWith('/')).map((l) => l.slice(0, -1))]);
}

function walk(dir: string, ignored: Set<string>, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(PROJECT_ROOT, path).split(sep).join('/');
    if (ignored.has(rel) || entry.name === '.git') continue;
    if (entry.isDirectory()) walk(path, ignored, out);
    else if (entry.isFile() && !entry.name.endsWith('.log')) out.push(rel);
  }
  return out;
}

function repositoryFiles(): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '-z'], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return listed.split('\0').filter((f) => f !== '');
  } catch {
    return walk(PROJECT_ROOT, ignoredDirs(), []);
  }
}

/** Git's test for binary content: a NUL byte near the start. */
function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

describe('the repository stands alone', () => {
  it('has no file that points outside it', () => {
    const files = repositoryFiles().filter((f) => !SKIPPED.has(f));
    expect(files.length, 'the repository files were found').toBeGreaterThan(100);
    const findings: string[] = [];
    for (const file of files) {
      const path = join(PROJECT_ROOT, file);
      // Tracked but deleted in this working copy: nothing to read.
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path);
      if (isBinary(bytes)) continue;
      for (const found of pointersOutside(bytes.toString('utf8'))) findings.push(`${file}:${found}`);
    }
    expect(findings, `say the point itself, or cite ${OWN_CONTRACT}`).toEqual([]);
  });

  it('recognises every kind of pointer, and the contract cited as the repo\'s own copy', () => {
    // Assembled from pieces, so that this file itself never matches.
    const s = (...parts: string[]) => parts.join('');
    expect(pointersOutside(s('see ..', '/shared/', 'notes'))).toEqual([s('1: ..', '/shared/')]);
    expect(pointersOutside(s('one\n(CONVENTIONS', ' 7)'))).toEqual([s('2: CONVENTIONS', ' 7')]);
    expect(pointersOutside(s('CONVENTIONS', ' §3'))).toHaveLength(1);
    expect(pointersOutside(s('DESIGN', '.md, "Moving images"'))).toEqual([s('1: DESIGN', '.md')]);
    expect(pointersOutside(s('(issue', ' 5, §1)'))).toEqual([s('1: issue', ' 5')]);
    expect(pointersOutside(s('Issue', ' 12 says'))).toHaveLength(1);
    expect(pointersOutside(s('service-interface', '.md 2.4'))).toEqual([s('1: service-interface', '.md')]);
    expect(pointersOutside(s('x/shared/service-interface', '.md'))).toHaveLength(1);
    expect(pointersOutside(s('(docs/service-interface', '.md 2.4)'))).toEqual([]);
    expect(pointersOutside(s('[it](../docs/service-interface', '.md)'))).toEqual([]);
    expect(pointersOutside('an issue with the mask, CONVENTIONS we follow, tissue 5')).toEqual([]);
  });
});
