/**
 * The seed a node's run sent, read from its outputs, for pinning it afterwards (workers/seeds.ts
 * `pinSeedsUsed`): the executor, the editor (as each node ends) and the CLI all read it so.
 */

/** A node's output in any of its forms: the executor's, on its way to the page, or shown. */
type Output =
  | { kind: 'text' | 'number' | 'texts'; value: unknown }
  | { kind: 'image'; value: { seed?: number } }
  | { kind: 'images'; value: readonly { seed?: number }[] };

const firstImage = (value: Output | undefined) =>
  value?.kind === 'image' ? value.value : value?.kind === 'images' ? value.value[0] : undefined;

/**
 * The seed of the node's first image: the one it sent (with `num_images` above 1 the others'
 * seeds are the service's own). Undefined when it made no image with a seed.
 */
export function seedUsed(outputs: Readonly<Record<string, Output>>): number | undefined {
  return (firstImage(outputs.image) ?? Object.values(outputs).map(firstImage).find((image) => image !== undefined))?.seed;
}
