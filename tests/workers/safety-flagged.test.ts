/**
 * A hosted provider that kept some pictures and left out those its safety checker flagged
 * (fal's `safety_flagged`): the node's images are the kept ones, and the node says how many were
 * left out, so a person asking for four and seeing three knows why.
 */
import { describe, expect, it } from 'vitest';
import type { ImageClient } from '../../api/client-types';
import { nodeApi } from '../../workers/node-api';
import { fakeChatClient, fakeImageB64 } from './fakes';

function imageClient(flagged: number | undefined): ImageClient {
  return {
    review: () => ({ backend: 'fal', label: 'fal', refusals: [], notes: [], translated: {} }),
    generate: () => Promise.resolve({ images: [{ image_b64: fakeImageB64('kept') }], ...(flagged === undefined ? {} : { safety_flagged: flagged }) }),
  };
}

describe('pictures a safety checker left out', () => {
  it('are said on the node, with how many', async () => {
    const notes: string[] = [];
    const api = nodeApi({ image: imageClient(3), chat: fakeChatClient().client }, new AbortController().signal, { onCall: () => undefined, onRetry: () => undefined, onNote: (n) => { notes.push(n); } });
    const response = await api.image.generate('sdxl', { prompt: 'p', num_images: 4 });
    expect(response.images).toHaveLength(1);
    expect(notes).toEqual(["fal's safety checker flagged 3 images, left out"]);
  });

  it('say nothing when none was flagged', async () => {
    const notes: string[] = [];
    const api = nodeApi({ image: imageClient(undefined), chat: fakeChatClient().client }, new AbortController().signal, { onCall: () => undefined, onRetry: () => undefined, onNote: (n) => { notes.push(n); } });
    await api.image.generate('sdxl', { prompt: 'p' });
    expect(notes).toEqual([]);
  });
});
