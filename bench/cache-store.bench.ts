/**
 * The persistent cache store (workers/idb-cache.ts): what keeping images as base64 strings costs
 * next to keeping them as bytes (Blobs), for a 4 MB JPEG's base64. Bytes save a quarter of the
 * space but need a decode on every write and an encode on every hit (a hit goes straight into the
 * next request as base64). IndexedDB here is fake-indexeddb in Node: its figures show the store's
 * own overhead, not a browser's disk.
 */
import 'fake-indexeddb/auto';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openDB } from 'idb';
import { createIdbCache } from '../workers/idb-cache';
import { base64ToBytes } from '../workers/transfer';
import { median, type BenchResult, type Benchmark } from './harness';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const ascii = new TextDecoder('latin1');

/** Base64 in plain JavaScript (ASCII codes into a buffer, decoded once), as a worker without Buffer would write it back. */
function bytesToBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = CODES[n >> 18]!;
    out[o++] = CODES[(n >> 12) & 63]!;
    out[o++] = CODES[(n >> 6) & 63]!;
    out[o++] = CODES[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out[o++] = CODES[n >> 18]!;
    out[o++] = CODES[(n >> 12) & 63]!;
    out[o++] = i + 1 < bytes.length ? CODES[(n >> 6) & 63]! : 61;
    out[o++] = 61;
  }
  return ascii.decode(out);
}

async function timeIt(times: number, fn: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const bench: Benchmark = {
  name: 'cache-store',
  async run(): Promise<BenchResult[]> {
    // 3 MB of JPEG-like bytes, 4 MB of base64: the largest images the engines send.
    const bytes = randomBytes(3 * 1024 * 1024);
    const b64 = bytes.toString('base64');
    const decode = await timeIt(7, () => base64ToBytes(b64));
    const encode = await timeIt(7, () => bytesToBase64(bytes));
    if (bytesToBase64(bytes.subarray(0, 30_000)) !== bytes.subarray(0, 30_000).toString('base64')) throw new Error('the benchmark encoder is wrong');

    const db = await openDB('bench-forms', 1, { upgrade: (d) => void d.createObjectStore('s') });
    const putString = await timeIt(7, () => db.put('s', { b64 }, 'k'));
    const getString = await timeIt(7, () => db.get('s', 'k'));
    const putBytes = await timeIt(7, () => db.put('s', { bytes: base64ToBytes(b64) }, 'k'));
    const getBytes = await timeIt(7, async () => bytesToBase64((await db.get('s', 'k') as { bytes: Uint8Array }).bytes));
    db.close();

    const cache = createIdbCache({ name: 'bench-cache' });
    const entry = { outputs: { image: { kind: 'image' as const, value: { b64, mime: 'image/jpeg' } } }, apiCalls: 1 };
    let n = 0;
    const set = await timeIt(7, () => cache.set(`k${n++}`, entry));
    const hit = await timeIt(7, () => cache.get('k3'));
    cache.close();

    const note = '4 MB of base64 (3 MB image)';
    return [
      { name: 'base64 → bytes (a Blob write would need it)', value: decode, unit: 'ms', better: 'lower', note },
      { name: 'bytes → base64 (a Blob hit would need it)', value: encode, unit: 'ms', better: 'lower', note },
      { name: 'IndexedDB put / get as a string', value: putString + getString, unit: 'ms', better: 'lower', note: `${note}; fake-indexeddb` },
      { name: 'IndexedDB put / get as bytes, converted both ways', value: putBytes + getBytes, unit: 'ms', better: 'lower', note: `${note}; fake-indexeddb` },
      { name: 'cache store set (LRU bookkeeping included)', value: set, unit: 'ms', better: 'lower', note: `${note}; fake-indexeddb` },
      { name: 'cache store hit (entry checked, use recorded)', value: hit, unit: 'ms', target: 50, better: 'lower', note: `${note}; fake-indexeddb` },
    ];
  },
};

export default bench;
