/**
 * The picture to paint over: the image arriving at the inpaint node's Image input. That is the
 * upstream Image loader's picture (from the asset store), or the image the upstream node made in the last run
 * (held by the run side as an object URL). Read once when the painter opens.
 */
import { imageObjectUrl } from '../files/assets';
import type { RunContextValue } from '../run/context';
import type { ShownValue } from '../results/object-urls';
import type { EditorState } from '../store/state';
import { ownValue } from '../../workflow/keys';

export type SourceImage =
  | {
    url: string;
    /** Where the picture comes from, for the painter to say ("Image loader “Photo”"). */
    from: string;
    /** Frees what was made for the painter (an object URL); nothing for a run's result. */
    release(): void;
  }
  | { url: undefined; reason: string };

function imageUrlOf(value: ShownValue | undefined): string | undefined {
  if (value?.kind === 'image') return value.value.url || undefined;
  if (value?.kind === 'images') return value.value[0]?.url || undefined;
  return undefined;
}

/** Finds the picture for node `nodeId`'s Image input, or says why there is none yet. */
export async function findSourceImage(state: EditorState, run: RunContextValue | null, nodeId: string, titleOf: (id: string) => string): Promise<SourceImage> {
  const edge = state.index.inbound.get(nodeId)?.get('image');
  if (!edge) return { url: undefined, reason: 'The Image input is not connected, so there is no picture to paint over yet.' };
  const upstream = state.index.nodeById.get(edge.source.node);
  if (!upstream) return { url: undefined, reason: 'The node wired into Image is missing.' };
  const title = `“${titleOf(upstream.id)}”`;

  const embedded = upstream.type === 'image-loader' ? upstream.params.image : undefined;
  if (typeof embedded === 'object' && embedded !== null) {
    const { b64, mime } = embedded as { b64?: unknown; mime?: unknown };
    if (typeof b64 === 'string' && typeof mime === 'string') {
      try {
        const url = await imageObjectUrl(b64, mime);
        return { url, from: `the picture in ${title}`, release: () => URL.revokeObjectURL(url) };
      } catch {
        return { url: undefined, reason: `The picture in ${title} could not be read.` };
      }
    }
  }

  const result = run?.controller.state.results.get(upstream.id);
  // The port's name is the file's: what the outputs hold, never what every object answers to.
  const url = imageUrlOf(ownValue(result?.outputs, edge.source.port));
  if (url) return { url, from: `the last run of ${title}`, release: () => undefined };
  return { url: undefined, reason: `${title} has not made an image yet: run the workflow (or that node) to paint over its picture.` };
}
