/**
 * Which API each node type of the catalogue calls, by type name: the run worker's cost table
 * (workers/cost.ts) prices these, and the editor checks before a run that the APIs a workflow
 * calls can be reached with the settings, and names what a run used in its history.
 */

/** Node types that send one image request per run. */
export const IMAGE_NODE_TYPES: ReadonlySet<string> = new Set(['text-to-image', 'image-to-image', 'inpaint', 'controlnet', 'merge', 'comfy-workflow']);
/** Node types that send one chat request per run. */
export const CHAT_NODE_TYPES: ReadonlySet<string> = new Set(['chat-prompt-writer']);
/** Node types that never call an API: their run is a pure function of parameters and inputs. */
export const FREE_NODE_TYPES: ReadonlySet<string> = new Set(['image-loader', 'text', 'split-text', 'join-text', 'preview', 'contact-sheet']);

/** Which of the two APIs a run may call. */
export interface ApiUse {
  image: boolean;
  text: boolean;
}

/** The APIs these nodes call when they run; a bypassed node calls none. */
export function apisUsedBy(nodes: readonly { type: string; bypass?: boolean }[]): ApiUse {
  const use: ApiUse = { image: false, text: false };
  for (const node of nodes) {
    if (node.bypass === true) continue;
    if (IMAGE_NODE_TYPES.has(node.type)) use.image = true;
    else if (CHAT_NODE_TYPES.has(node.type)) use.text = true;
  }
  return use;
}
