/**
 * Keeps two parts of the README true to the code: the server's settings table is exactly what
 * server/config.ts renders, and the dependency list names every package of package.json, each
 * under the heading it belongs to, and nothing that is no longer there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, settingsMarkdown } from '../../server/config';

const README = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8').split('\n');
const SETTINGS_HEADING = "## The server's settings";
const DEPENDENCIES_HEADING = '## Dependencies, and why each is there';
const REFRESH_TABLE = `npx tsx -e "import('./server/config.ts').then(m => console.log(m.settingsMarkdown()))"`;

/** The lines of the README from `heading` to the next heading of the same level or above. */
function section(heading: string): string[] {
  const start = README.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no heading "${heading}"; this test reads the section under it`);
  const end = README.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  return README.slice(start + 1, end < 0 ? undefined : end);
}

/** The first Markdown table in `lines`: its consecutive lines starting with "|". */
function firstTable(lines: string[]): string {
  const start = lines.findIndex((line) => line.startsWith('|'));
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/**
 * The packages each bullet of a list names before its colon, grouped by the label the list
 * follows ("Runtime:", "Development:"): "- `eslint`, `globals`: lint…" names eslint and globals.
 */
function namedPackages(lines: string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  let group: string[] | undefined;
  for (const line of lines) {
    const label = /^(\w[\w ]*):$/.exec(line);
    if (label?.[1]) groups.set(label[1], (group = []));
    const bullet = /^- (.*?`):/.exec(line);
    if (!bullet?.[1]) continue;
    if (!group) throw new Error(`README.md's dependency list has a bullet before any "Runtime:" or "Development:" label: ${line}`);
    for (const match of bullet[1].matchAll(/`([^`]+)`/g)) if (match[1]) group.push(match[1]);
  }
  return groups;
}

describe('README.md', () => {
  it("shows the server's settings table exactly as server/config.ts renders it", () => {
    const table = firstTable(section(SETTINGS_HEADING));
    expect(table, `README.md's table under "${SETTINGS_HEADING}" is not what settingsMarkdown() in server/config.ts renders: replace it with the output of\n  ${REFRESH_TABLE}\n`).toBe(settingsMarkdown());
  });

  it('names every dependency of package.json, runtime and development apart, and none that is gone', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const named = namedPackages(section(DEPENDENCIES_HEADING));
    const where = `README.md, "${DEPENDENCIES_HEADING}"`;
    const sorted = (names: Iterable<string>) => [...names].sort();
    expect(sorted(named.get('Runtime') ?? []), `${where}, "Runtime:" must name each of package.json's dependencies (a bullet "- \`name\`: why it is there"), and only those`).toEqual(sorted(Object.keys(pkg.dependencies ?? {})));
    expect(sorted(named.get('Development') ?? []), `${where}, "Development:" must name each of package.json's devDependencies (a bullet "- \`name\`: why it is there"), and only those`).toEqual(sorted(Object.keys(pkg.devDependencies ?? {})));
  });
});
