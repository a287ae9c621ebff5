/**
 * Inpainting: the picture changes only where the mask is light. White repaints fully (by
 * strength), grey blends partially, black keeps the input's pixels untouched.
 */

/** out = input + (generated - input) * strength * mask, in place on the generated pixels. */
export function blendMasked(generated: Buffer, input: Uint8Array, mask: Uint8Array, strength: number): void {
  const k = strength / 255;
  for (let p = 0, i = 0; p < mask.length; p++, i += 3) {
    const m = mask[p]! * k;
    if (m === 0) {
      generated[i] = input[i]!;
      generated[i + 1] = input[i + 1]!;
      generated[i + 2] = input[i + 2]!;
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const a = input[i + c]!;
      generated[i + c] = a + (generated[i + c]! - a) * m + 0.5;
    }
  }
}
