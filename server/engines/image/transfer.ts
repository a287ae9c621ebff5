/**
 * Subject transfer ("photo merge"): every sample image of a trigger word is carried into the
 * picture. The samples of one word are resized to a subject frame and averaged (each image of
 * a batch leans toward a different sample), then set into the scene with a feathered edge,
 * placed across the frame by where the trigger word stands in the prompt and sized and made
 * more opaque by the word's prompt weight.
 */
import { decodeImage } from './codec';
import { Rng, hashInts } from '../random';
import { weightedWords } from './prompt-words';

export interface SubjectSamples {
  word: string;
  /** Each sample resized to the subject frame, RGB. */
  samples: Uint8Array[];
  box: { x: number; y: number; width: number; height: number };
  /** Peak opacity, from the trigger word's weight. */
  opacity: number;
}

/** Where each trigger word's subject goes, from its position and weight in the prompt. */
export function layoutSubjects(prompt: string, words: string[], width: number, height: number): Omit<SubjectSamples, 'samples'>[] {
  const found = words
    .map((word) => ({ word, at: Math.max(0, prompt.indexOf(word)) }))
    .sort((a, b) => a.at - b.at);
  const weighted = weightedWords(prompt);
  return found.map(({ word, at }, i) => {
    const lower = word.toLowerCase();
    const weight = weighted.find((w) => w.word === lower)?.weight ?? 1;
    const n = found.length;
    // Half by the word's place in the sentence, half by its rank, so subjects never pile up.
    const centre = 0.5 * (0.2 + 0.6 * (at / Math.max(1, prompt.length))) + 0.5 * ((i + 0.5) / n);
    const scale = Math.min(1.2, Math.max(0.6, weight));
    const bw = Math.round(Math.min(0.62, 0.95 / n) * width * scale);
    const bh = Math.round(Math.min(0.95, 0.62 * scale) * height);
    const x = Math.round(Math.min(width - bw, Math.max(0, centre * width - bw / 2)));
    const y = Math.round(Math.min(height - bh, Math.max(0, height * 0.56 - bh / 2)));
    return { word, box: { x, y, width: bw, height: bh }, opacity: Math.min(0.95, 0.82 * weight) };
  });
}

/** Decodes every sample into its subject frame; errors name e.g. 'transfer_images.sks[1]'. */
export async function prepareSubjects(prompt: string, transfer: Record<string, string[]>, width: number, height: number): Promise<SubjectSamples[]> {
  const layout = layoutSubjects(prompt, Object.keys(transfer), width, height);
  return Promise.all(layout.map(async (s) => {
    const images = transfer[s.word] ?? [];
    const samples = await Promise.all(images.map(async (b64, i) =>
      (await decodeImage(`transfer_images.${s.word}[${i}]`, b64, s.box.width, s.box.height, 'rgb')).data));
    return { ...s, samples };
  }));
}

/** Composites the subjects into the full-size picture, in place. */
export function compositeSubjects(out: Buffer, width: number, subjects: SubjectSamples[], seed: number): void {
  for (const s of subjects) {
    const rng = new Rng(hashInts(seed, s.samples.length));
    const lean = s.samples.length > 1 ? seed % s.samples.length : 0;
    const weights = s.samples.map((_, i) => (i === lean ? 1.6 : 1) + rng.range(0, 0.3));
    const total = weights.reduce((a, b) => a + b, 0);
    const { x: bx, y: by, width: bw, height: bh } = s.box;
    for (let y = 0; y < bh; y++) {
      const ny = ((y + 0.5) / bh) * 2 - 1;
      for (let x = 0; x < bw; x++) {
        const nx = ((x + 0.5) / bw) * 2 - 1;
        // A rounded-rectangle falloff: solid in the middle, feathered over the outer 20%.
        const r = Math.pow(Math.pow(Math.abs(nx), 4) + Math.pow(Math.abs(ny), 4), 0.25);
        const a = s.opacity * Math.max(0, Math.min(1, (1 - r) / 0.2));
        if (a <= 0) continue;
        const src = (y * bw + x) * 3;
        const dst = ((by + y) * width + bx + x) * 3;
        for (let c = 0; c < 3; c++) {
          let v = 0;
          for (let k = 0; k < s.samples.length; k++) v += s.samples[k]![src + c]! * weights[k]!;
          v /= total;
          out[dst + c] = out[dst + c]! + (v - out[dst + c]!) * a + 0.5;
        }
      }
    }
  }
}
