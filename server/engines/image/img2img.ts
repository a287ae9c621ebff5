/**
 * Image-to-image: the input steers the working field (its colours and layout survive in
 * proportion to 1 - strength), and the finished picture is blended back over the input by
 * strength, so 0 returns the input and the distance to it grows steadily with strength.
 */
import { type Field } from './field';

/** How much of the prompt's own scene replaces the input in the working field. */
export function sceneShare(strength: number): number {
  return Math.pow(strength, 1.2);
}

/** Mixes the (downscaled) input into the rendered scene: field = input + (scene - input) * share. */
export function mixInputIntoField(field: Field, input: Field, strength: number): void {
  const t = sceneShare(strength);
  const d = field.data;
  const s = input.data;
  for (let i = 0; i < d.length; i++) d[i] = s[i]! + (d[i]! - s[i]!) * t;
}

/** out = input + (generated - input) * strength, in place on the generated pixels. */
export function blendWithInput(generated: Buffer, input: Uint8Array, strength: number): void {
  if (strength >= 1) return;
  for (let i = 0; i < generated.length; i++) {
    const a = input[i]!;
    generated[i] = a + (generated[i]! - a) * strength + 0.5;
  }
}
