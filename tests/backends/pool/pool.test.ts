import { describe, expect, it } from 'vitest';
import { createPoolBackend, type PoolMember } from '../../../api/backends/pool/index';
import type { ImageBackend, ImageCallOptions } from '../../../api/backends/types';
import { ApiError } from '../../../api/errors';
import type { ImageRequest } from '../../../api/image-schema';

type Behaviour = 'ok' | 'refused' | 'timeout-before-accepting' | 'timeout-while-sending' | 'dies-after-accepting';

/** A server whose next answers follow `script` (then 'ok'), counting what reached it. */
function server(label: string, script: Behaviour[] = [], reportsAcceptance = true) {
  const received: string[] = [];
  let probes = 0;
  let probeOk = false;
  const backend: ImageBackend = {
    kind: 'comfyui',
    label: 'ComfyUI',
    reportsAcceptance,
    review: () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: undefined }),
    async generate(_engine, request: ImageRequest, options: ImageCallOptions = {}) {
      await Promise.resolve();
      const behaviour = script.shift() ?? 'ok';
      const endpoint = `POST http://127.0.0.1:1/${label}/prompt`;
      if (behaviour === 'refused') throw new ApiError({ kind: 'network', detail: 'network error: connect ECONNREFUSED 127.0.0.1:1', endpoint, attempts: 1, retryable: true });
      if (behaviour === 'timeout-before-accepting') throw new ApiError({ kind: 'timeout', detail: 'no response within 180 s', endpoint, attempts: 1, retryable: true });
      options.onSending?.();
      if (behaviour === 'timeout-while-sending') {
        // POST /prompt went out and no answer came: the server may have queued it all the same.
        received.push(request.prompt);
        throw new ApiError({ kind: 'timeout', detail: 'no response within 180 s', endpoint, attempts: 1, retryable: false });
      }
      received.push(request.prompt);
      options.onAccepted?.();
      if (behaviour === 'dies-after-accepting') throw new ApiError({ kind: 'network', detail: 'network error: socket hang up', endpoint, attempts: 1, retryable: false });
      return { images: [{ image_b64: 'AAAA', seed: 1 }] };
    },
    listNames() {
      probes++;
      return probeOk ? Promise.resolve({}) : Promise.reject(new Error('still down'));
    },
  };
  return { member: { label, backend } satisfies PoolMember, received, probes: () => probes, recover: () => { probeOk = true; } };
}

/** Timers the test fires by hand. */
function timers() {
  const pending: { run: () => void; ms: number }[] = [];
  return {
    schedule: (run: () => void, ms: number) => { const t = { run, ms }; pending.push(t); return () => pending.splice(pending.indexOf(t), 1); },
    delays: () => pending.map((t) => t.ms),
    fire: async () => { for (const t of pending.splice(0)) t.run(); await new Promise((r) => setTimeout(r, 0)); },
  };
}

const request = (prompt: string): ImageRequest => ({ prompt }) as ImageRequest;

describe('a pool backend', () => {
  it('spreads concurrent requests over every server and says which made each image', async () => {
    const a = server('desk');
    const b = server('rented');
    const pool = createPoolBackend([a.member, b.member]);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => pool.generate('sdxl', request(`p${i}`))));
    expect(a.received).toHaveLength(4);
    expect(b.received).toHaveLength(4);
    expect(answers.map((r) => r.server).sort()).toEqual([...Array(4).fill('desk'), ...Array(4).fill('rented')]);
    expect(pool.status()).toEqual([
      { label: 'desk', inFlight: 0, queued: 0, down: false, made: 4 },
      { label: 'rented', inFlight: 0, queued: 0, down: false, made: 4 },
    ]);
  });

  it('sends a request a server refused to another, marks it down and takes it back once a probe answers', async () => {
    const a = server('desk', ['refused']);
    const b = server('rented');
    const clock = timers();
    const pool = createPoolBackend([a.member, b.member], { schedule: clock.schedule });
    const answer = await pool.generate('sdxl', request('one'));
    expect(answer.server).toBe('rented');
    expect(pool.status()[0]).toMatchObject({ label: 'desk', down: true });
    expect(clock.delays()).toEqual([1000]);
    await clock.fire(); // the probe fails: retried after twice the delay
    expect(a.probes()).toBe(1);
    expect(clock.delays()).toEqual([2000]);
    a.recover();
    await clock.fire();
    expect(pool.status()[0]).toMatchObject({ down: false });
    expect((await pool.generate('sdxl', request('two'))).server).toBe('desk');
    expect([...a.received, ...b.received].sort()).toEqual(['one', 'two']);
    pool.close();
  });

  it('re-places a request that timed out before the server accepted it', async () => {
    const a = server('desk', ['timeout-before-accepting']);
    const b = server('rented');
    const pool = createPoolBackend([a.member, b.member], { schedule: timers().schedule });
    expect((await pool.generate('sdxl', request('x'))).server).toBe('rented');
  });

  it('never sends again a request a server had accepted: it fails naming the server', async () => {
    const a = server('desk', ['dies-after-accepting']);
    const b = server('rented');
    const pool = createPoolBackend([a.member, b.member], { schedule: timers().schedule });
    const failure = await pool.generate('sdxl', request('x')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).detail).toBe('on desk: network error: socket hang up');
    expect(a.received).toEqual(['x']);
    expect(b.received).toEqual([]);
  });

  it('never re-places a request whose POST /prompt went out and timed out: the server may have queued it', async () => {
    const a = server('desk', ['timeout-while-sending']);
    const b = server('rented');
    const pool = createPoolBackend([a.member, b.member], { schedule: timers().schedule });
    await expect(pool.generate('sdxl', request('x'))).rejects.toThrow('on desk: no response within 180 s');
    expect(a.received).toEqual(['x']);
    expect(b.received).toEqual([]);
    expect(pool.status()[0]).toMatchObject({ down: false, inFlight: 0 });
  });

  it('does not re-place a timeout from a backend that cannot say when a server accepted a request', async () => {
    const a = server('desk', ['timeout-before-accepting'], false);
    const b = server('rented');
    const pool = createPoolBackend([a.member, b.member], { schedule: timers().schedule });
    await expect(pool.generate('sdxl', request('x'))).rejects.toThrow('on desk: no response within 180 s');
    expect(b.received).toEqual([]);
  });

  it('refuses before sending a request no server can take, naming what is missing where', async () => {
    const a = server('desk');
    const pool = createPoolBackend([a.member], {
      needs: () => ({ checkpoints: ['xl.safetensors'], loras: [], controlnets: [], nodeClasses: [] }),
    });
    // Without a list the server is not excluded; this one says what it holds.
    await expect(pool.generate('sdxl', request('x'))).resolves.toMatchObject({ server: 'desk' });
    const strict = createPoolBackend([a.member], {
      needs: () => ({ checkpoints: ['xl.safetensors'], loras: [], controlnets: [], nodeClasses: [] }),
    });
    strict.holds(0, { checkpoints: new Set(['sd15.safetensors']) });
    await expect(strict.generate('sdxl', request('y'))).rejects.toThrow("not sent: no server can take this request: desk lacks checkpoint 'xl.safetensors'");
    expect(a.received).toEqual(['x']);
  });

  it('refuses a pool with no servers or two of the same label', () => {
    expect(() => createPoolBackend([])).toThrow('at least one server');
    const a = server('desk');
    expect(() => createPoolBackend([a.member, a.member])).toThrow('its own label');
  });
});

describe('a ComfyUI workflow node on a pool', () => {
  const pipelineServer = (label: string, fails?: ApiError) => {
    const ran: string[] = [];
    const backend: ImageBackend = {
      kind: 'comfyui',
      label: 'ComfyUI',
      reportsAcceptance: true,
      review: () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: undefined }),
      generate: () => Promise.reject(new Error('not used')),
      async runPipeline(request) {
        await Promise.resolve();
        if (fails !== undefined) throw fails;
        ran.push(label);
        return { outputs: [{ name: 'out', images: [{ b64: 'AAAA', mime: 'image/png', filename: 'a.png' }], texts: [] }], record: { prompt: request.pipeline, classes: [], files: [] } };
      },
    };
    return { member: { label, backend }, ran };
  };
  const request = { pipeline: { nodes: [{ class_type: 'KSampler' }] }, set: [], images: [], outputs: [] } as unknown as Parameters<NonNullable<ImageBackend['runPipeline']>>[0];

  it('runs on whichever server is free, and goes elsewhere only when a server refused the connection', async () => {
    const a = pipelineServer('desk');
    const b = pipelineServer('rented');
    const pool = createPoolBackend([a.member, b.member]);
    const answers = await Promise.all([pool.runPipeline!(request), pool.runPipeline!(request)]);
    expect([...a.ran, ...b.ran].sort()).toEqual(['desk', 'rented']);
    // Each answer names the server that ran it, by label, for the images' history and manifest.
    expect(answers.map((answer) => answer.server).sort()).toEqual(['desk', 'rented']);

    const refused = pipelineServer('off', new ApiError({ kind: 'network', detail: 'network error: connect ECONNREFUSED 127.0.0.1:1', endpoint: 'POST /prompt', attempts: 1, retryable: true }));
    const c = pipelineServer('on');
    await createPoolBackend([refused.member, c.member], { schedule: timers().schedule }).runPipeline!(request);
    expect(c.ran).toEqual(['on']);

    const lost = pipelineServer('lost', new ApiError({ kind: 'network', detail: 'network error: socket hang up', endpoint: 'POST /prompt', attempts: 1, retryable: false }));
    const d = pipelineServer('idle');
    await expect(createPoolBackend([lost.member, d.member]).runPipeline!(request)).rejects.toThrow('on lost: network error: socket hang up');
    expect(d.ran).toEqual([]);
  });
});
