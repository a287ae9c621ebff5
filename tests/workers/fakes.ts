/**
 * Small node definitions, a registry and API clients of our own, so the executor is tested
 * without the real catalogue or a server: the fake image client counts calls, can be slow, and
 * records whether a request saw its abort signal.
 */
import { z } from 'zod';
import type { ChatClient, ImageClient } from '../../api/client-types';
import type { EngineId } from '../../api/catalog';
import type { ImageRequest, ImageResponse } from '../../api/image';
import type { AnyNodeDefinition, NodeDefinition, RunContext } from '../../nodes/types';
import type { Workflow } from '../../workflow/schema';
import type { ExecutorEvent } from '../../workers/events';
import type { NodeRegistry } from '../../workers/validate';

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * What the fake engine answers: the skeleton of an 8×8 JPEG (SOI, a comment holding text naming
 * the request, a frame header, a scan, EOI), whole enough for the executor's check of images.
 */
export function fakeImageB64(text: string): string {
  const comment = Buffer.from(text);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]), comment,
    Buffer.from([0xff, 0xc0, 0, 17, 8, 0, 8, 0, 8, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
    Buffer.from([0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0, 0x00, 0xff, 0xd9]),
  ]).toString('base64');
}

export interface FakeCall {
  engine: EngineId;
  request: ImageRequest;
  start: number;
  end?: number;
  sawAbort: boolean;
}

/** An image client whose answers are derived from the prompt and seed, with a set latency. */
export function fakeImageClient(options: { latencyMs?: number; now?: () => number } = {}) {
  const now = options.now ?? (() => performance.now());
  const calls: FakeCall[] = [];
  let randomSeed = 1000;
  let inFlight = 0;
  let maxInFlight = 0;
  const client: ImageClient = {
    async generate(engine, request, callOptions) {
      const call: FakeCall = { engine, request, start: now(), sawAbort: false };
      calls.push(call);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (options.latencyMs) await delay(options.latencyMs, callOptions?.signal);
        else if (callOptions?.signal?.aborted) throw callOptions.signal.reason;
      } catch (error) {
        call.sawAbort = callOptions?.signal?.aborted ?? false;
        throw error;
      } finally {
        inFlight--;
        call.end = now();
      }
      const seed = request.seed ?? randomSeed++;
      const response: ImageResponse = {
        images: [{ image_b64: fakeImageB64(`${engine}|${request.prompt}|${seed}|${request.init_image ?? ''}`), seed }],
      };
      return response;
    },
  };
  return { client, calls, get maxInFlight() { return maxInFlight; } };
}

/** A chat client that streams the words of a fixed answer. */
export function fakeChatClient(answer = 'a quiet cabin in the snowy woods') {
  let calls = 0;
  const client: ChatClient = {
    complete() {
      return Promise.reject(new Error('the fake chat client only streams'));
    },
    async *stream(_request, callOptions) {
      calls++;
      for (const word of answer.split(' ')) {
        await delay(1, callOptions?.signal);
        yield { text: `${word} `, finishReason: null };
      }
    },
  };
  return { client, get calls() { return calls; } };
}

const text = (value: string) => ({ kind: 'text' as const, value });

const sourceNode: NodeDefinition<{ text: string }> = {
  type: 'source', version: 1, title: 'Source', category: 'input', description: 'Gives its text.',
  params: z.strictObject({ text: z.string().default('hello') }),
  inputs: [],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ params }) => Promise.resolve({ text: text(params.text) }),
};

const genParams = z.strictObject({
  prompt: z.string().min(1, 'must not be empty'),
  seed: z.number().int().nullable().default(null),
  steps: z.number().int().min(1).max(50).default(10),
});
const genNode: NodeDefinition<z.infer<typeof genParams>> = {
  type: 'gen', version: 1, title: 'Generate', category: 'image', description: 'Calls the image API.',
  params: genParams,
  inputs: [
    { name: 'prompt', kind: 'text', label: 'Prompt', optional: true, param: 'prompt' },
    { name: 'seed', kind: 'number', label: 'Seed', optional: true, param: 'seed' },
  ],
  outputs: [{ name: 'image', kind: 'image', label: 'Image' }, { name: 'images', kind: 'images', label: 'Images' }],
  validate: (p) => (p.prompt.includes('forbidden') ? [{ param: 'prompt', message: 'may not say forbidden' }] : []),
  cacheable: (p) => p.seed !== null,
  async run({ params, ctx }) {
    ctx.progress(0.5, 'drawing');
    const res = await ctx.api.image.generate('sdxl', { prompt: params.prompt, seed: params.seed, steps: params.steps }, { signal: ctx.signal });
    const images = res.images.map((i) => ({ b64: i.image_b64, mime: 'image/jpeg', ...(i.seed === undefined ? {} : { seed: i.seed }) }));
    ctx.progress(1);
    return { image: { kind: 'image', value: images[0]! }, images: { kind: 'images', value: images } };
  },
};

const restyleNode: NodeDefinition<{ prompt: string; seed: number }> = {
  type: 'restyle', version: 1, title: 'Restyle', category: 'image', description: 'img2img.',
  params: z.strictObject({ prompt: z.string().default('restyle'), seed: z.number().int().default(7) }),
  inputs: [{ name: 'image', kind: 'image', label: 'Image' }],
  outputs: [{ name: 'image', kind: 'image', label: 'Image' }],
  async run({ params, inputs, ctx }) {
    const input = inputs.image;
    if (input?.kind !== 'image') throw new Error('no image');
    const res = await ctx.api.image.generate('sdxl', { prompt: params.prompt, seed: params.seed, init_image: input.value.b64 });
    return { image: { kind: 'image', value: { b64: res.images[0]!.image_b64, mime: 'image/jpeg', seed: params.seed } } };
  },
};

/** Waits `ms`, honouring the abort signal, then passes its input text on. */
const slowNode: NodeDefinition<{ ms: number }> = {
  type: 'slow', version: 1, title: 'Slow', category: 'text', description: 'Takes its time.',
  params: z.strictObject({ ms: z.number().default(50) }),
  inputs: [{ name: 'in', kind: 'text', label: 'In', optional: true }],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  async run({ params, inputs, ctx }) {
    await delay(params.ms, ctx.signal);
    return { text: text(inputs.in?.kind === 'text' ? inputs.in.value : 'slow') };
  },
};

/** Never settles and ignores its signal: the executor must not wait for it after a cancel. */
const stuckNode: NodeDefinition<Record<string, never>> = {
  type: 'stuck', version: 1, title: 'Stuck', category: 'text', description: 'Never ends.',
  params: z.strictObject({}),
  inputs: [],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: () => new Promise(() => undefined),
};

class FakeHttpError extends Error {
  readonly status = 503;
  readonly kind = 'http';
}

const failNode: NodeDefinition<{ message: string }> = {
  type: 'fail', version: 1, title: 'Fail', category: 'text', description: 'Always fails.',
  params: z.strictObject({ message: z.string().default('boom') }),
  inputs: [{ name: 'in', kind: 'text', label: 'In', optional: true }],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ params }) => Promise.reject(new FakeHttpError(params.message)),
};

const joinNode: NodeDefinition<{ sep: string }> = {
  type: 'join', version: 1, title: 'Join', category: 'text', description: 'Joins two texts.',
  params: z.strictObject({ sep: z.string().default(' ') }),
  inputs: [{ name: 'a', kind: 'text', label: 'A' }, { name: 'b', kind: 'text', label: 'B', optional: true }],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ params, inputs }) => Promise.resolve({
    text: text([inputs.a, inputs.b].flatMap((v) => (v?.kind === 'text' ? [v.value] : [])).join(params.sep)),
  }),
};

const chatNode: NodeDefinition<{ instruction: string }> = {
  type: 'chat', version: 1, title: 'Chat', category: 'text', description: 'Streams a prompt.',
  params: z.strictObject({ instruction: z.string().default('write a prompt') }),
  inputs: [],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  async run({ params, ctx }) {
    let out = '';
    const messages = [{ role: 'user' as const, content: params.instruction }];
    for await (const chunk of ctx.api.chat.stream({ model: ctx.settings.chatModel, messages })) {
      out += chunk.text;
      ctx.partialText(chunk.text);
    }
    return { text: text(out.trim()) };
  },
};

/** Inputs derived from parameters, like Text's `{{name}}` placeholders. */
const templateNode: NodeDefinition<{ names: string[] }> = {
  type: 'template', version: 1, title: 'Template', category: 'text', description: 'One input per name.',
  params: z.strictObject({ names: z.array(z.string().min(1)).default([]) }),
  inputs: (p: { names: string[] }) => p.names.map((name) => ({ name, kind: 'text' as const, label: name })),
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ inputs }) => Promise.resolve({ text: text(Object.values(inputs).map((v) => String(v?.value)).join('+')) }),
};

/** Gives its `items` as a text list: what Split text hands on. */
const listNode: NodeDefinition<{ items: string[] }> = {
  type: 'list', version: 1, title: 'List', category: 'text', description: 'A text list.',
  params: z.strictObject({ items: z.array(z.string()).default(['a', 'b', 'c']) }),
  inputs: [],
  outputs: [{ name: 'items', kind: 'texts', label: 'Items' }],
  run: ({ params }) => Promise.resolve({ items: { kind: 'texts', value: params.items } }),
};

/** Takes a whole image list and a whole text list (a collector, like the Contact sheet). */
const collectNode: NodeDefinition<Record<string, never>> = {
  type: 'collect', version: 1, title: 'Collect', category: 'output', description: 'Takes lists whole.',
  params: z.strictObject({}),
  inputs: [{ name: 'images', kind: 'images', label: 'Images' }, { name: 'captions', kind: 'texts', label: 'Captions', optional: true }],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ inputs }) => Promise.resolve({
    text: text(`${inputs.images?.kind === 'images' ? inputs.images.value.length : 0} images; ${inputs.captions?.kind === 'texts' ? inputs.captions.value.join('|') : ''}`),
  }),
};

export const fakeDefinitions: readonly AnyNodeDefinition[] = [
  sourceNode, genNode, restyleNode, slowNode, stuckNode, failNode, joinNode, chatNode, templateNode, listNode, collectNode,
];

export const fakeRegistry: NodeRegistry = {
  get: (type) => fakeDefinitions.find((d) => d.type === type),
};

type NodeSpec = [id: string, type: string, params?: Record<string, unknown>];

/** A workflow from `[id, type, params]` nodes and `'a.out -> b.in'` edges. */
export function workflow(nodes: NodeSpec[], edges: string[] = []): Workflow {
  return {
    format: 'atelier.workflow',
    version: 1,
    metadata: { title: 'test', description: '', created: '2026-01-01T00:00:00Z', modified: '2026-01-01T00:00:00Z' },
    nodes: nodes.map(([id, type, params], i) => ({ id, type, position: { x: i * 10, y: 0 }, params: params ?? {} })),
    edges: edges.map((spec, i) => {
      const [from, to] = spec.split('->').map((s) => s.trim()) as [string, string];
      const [sn, sp] = from.split('.') as [string, string];
      const [tn, tp] = to.split('.') as [string, string];
      return { id: `e${i}`, source: { node: sn, port: sp }, target: { node: tn, port: tp } };
    }),
  };
}

/** Collects events, with helpers to read them per node. */
export function eventLog() {
  const events: ExecutorEvent[] = [];
  return {
    events,
    onEvent: (e: ExecutorEvent) => void events.push(e),
    /** The event types one node went through, in order. */
    of: (nodeId: string) => events.filter((e) => 'nodeId' in e && e.nodeId === nodeId).map((e) => e.type),
    types: () => events.map((e) => e.type),
  };
}

export const testSettings: RunContext['settings'] = { chatModel: 'local-chat' };
