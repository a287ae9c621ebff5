/**
 * Seeded randomness for the local engines: string and number hashes, a small generator and the
 * requests' seeds. The image engine draws every random thing in a picture from here, the text
 * engine its sampling and tie-breaking jitter, so the same request and seed give the same bytes
 * or words.
 */
import { randomInt } from 'node:crypto';

/** Seeds are 32-bit: 0 to 2^32 - 1, the interface's local limits. */
export const SEED_LIMIT = 2 ** 32;

/** A fresh random seed, for requests whose seed is null or missing. */
export function randomSeed(): number {
  return randomInt(0, SEED_LIMIT);
}

/** The seed of the n-th image of a request: seed, seed+1, ... wrapping within the seed range. */
export function nthSeed(seed: number, n: number): number {
  return (seed + n) % SEED_LIMIT;
}

/** 32-bit FNV-1a of a string (its offset basis xor `salt`), finished with a murmur3 avalanche so nearby strings scatter. */
export function hashString(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Combines numbers into one well-mixed 32-bit hash. */
export function hashInts(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = mix32((h ^ (v >>> 0)) + 0x7f4a7c15);
  return h;
}

function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small, fast, seedable generator (mulberry32); `next()` is uniform in [0, 1). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Roughly normal (mean 0, deviation 1): sum of four uniforms, cheap and bounded. */
  gauss(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * 1.7320508;
  }
}
