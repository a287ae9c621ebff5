/**
 * `npm run bench [name...]`: runs every `bench/*.bench.ts`, prints each figure beside its
 * target, and writes bench/results/latest.json. Targets live here, not in timed tests.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { meetsTarget, type BenchResult, type Benchmark } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).sort();
const all: (BenchResult & { bench: string; met: boolean | undefined })[] = [];

for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: Benchmark };
  const bench = mod.default;
  if (only.length > 0 && !only.includes(bench.name)) continue;
  console.log(`\n## ${bench.name} (${file})`);
  for (const r of await bench.run()) {
    const met = meetsTarget(r);
    all.push({ ...r, bench: bench.name, met });
    const target = r.target === undefined ? '' : ` (target ${r.better === 'lower' ? '<=' : '>='} ${r.target} ${r.unit}: ${met ? 'met' : 'MISSED'})`;
    console.log(`  ${r.name}: ${round(r.value)} ${r.unit}${target}${r.note ? ` - ${r.note}` : ''}`);
  }
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}

await mkdir(join(here, 'results'), { recursive: true });
await writeFile(join(here, 'results', 'latest.json'), `${JSON.stringify({ date: new Date().toISOString(), results: all }, null, 2)}\n`);
const missed = all.filter((r) => r.met === false);
console.log(`\n${all.length} figures, ${all.filter((r) => r.met).length} targets met, ${missed.length} missed`);
