/** A fake RunContext and fake API clients that record what nodes send. */
import type { EngineId } from '../../api/catalog';
import type { ChatRequest } from '../../api/chat';
import type { CallOptions, ChatClient, ChatStreamEvent, ImageClient } from '../../api/client-types';
import type { ImageRequest, ImageResponse } from '../../api/image';
import type { RunContext } from '../../nodes/types';

export interface ImageCall {
  engine: EngineId;
  request: ImageRequest;
  options: CallOptions | undefined;
}

export interface FakeContext extends RunContext {
  imageCalls: ImageCall[];
  chatRequests: Omit<ChatRequest, 'stream'>[];
  partials: string[];
  progressCalls: number[];
  /** The words that came with each progress call (undefined where none did). */
  progressMessages: (string | undefined)[];
}

/** JPEG-signature base64 that a fake engine "generates"; `n` makes each one distinct. */
export function fakeJpeg(n: number): string {
  return Buffer.from([0xff, 0xd8, 0xff, 0xe0, n & 0xff, 1, 2, 3]).toString('base64');
}

export const PNG_B64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

export interface FakeOptions {
  /** What the image client answers; by default one JPEG per requested image, without seeds. */
  respond?: (engine: EngineId, request: ImageRequest) => ImageResponse;
  /** Chat stream events to yield. */
  chatEvents?: ChatStreamEvent[];
  chatModel?: string;
  /** The seed the context hands a node whose seed is random. */
  randomSeed?: number;
}

export function fakeContext(options: FakeOptions = {}): FakeContext {
  const ctx: FakeContext = {
    imageCalls: [],
    chatRequests: [],
    partials: [],
    progressCalls: [],
    progressMessages: [],
    signal: new AbortController().signal,
    settings: { chatModel: options.chatModel ?? 'local-writer' },
    progress: (fraction, message) => {
      ctx.progressCalls.push(fraction);
      ctx.progressMessages.push(message);
    },
    partialText: (delta) => { ctx.partials.push(delta); },
    randomSeed: () => options.randomSeed ?? 424242,
    api: { image: undefined as unknown as ImageClient, chat: undefined as unknown as ChatClient },
  };
  const respond = options.respond ?? ((_engine, request) => ({
    images: Array.from({ length: request.num_images ?? 1 }, (_, i) => ({ image_b64: fakeJpeg(i) })),
  }));
  ctx.api.image = {
    generate: (engine, request, callOptions) => {
      ctx.imageCalls.push({ engine, request, options: callOptions });
      return Promise.resolve(respond(engine, request));
    },
  };
  const events = options.chatEvents ?? [];
  ctx.api.chat = {
    complete: () => Promise.reject(new Error('nodes must stream, not call complete()')),
    stream(request) {
      ctx.chatRequests.push(request);
      return (async function* () {
        for (const event of events) {
          await Promise.resolve();
          yield event;
        }
      })();
    },
  };
  return ctx;
}
