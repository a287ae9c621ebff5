import { describe, expect, it } from 'vitest';
import { NO_NEEDS, place, type PlacementNeeds, type ServerView } from '../../../api/backends/pool/placement';
import { createPoolState, retryDelay, RETRY_MAX_MS } from '../../../api/backends/pool/state';

function server(id: number, over: Partial<ServerView> = {}): ServerView {
  return { id, label: `gpu-${id}`, down: false, inFlight: 0, queued: 0, holds: {}, ...over };
}

const needs = (over: Partial<PlacementNeeds>): PlacementNeeds => ({ ...NO_NEEDS, ...over });

function chosen(servers: ServerView[], n: PlacementNeeds = NO_NEEDS): string {
  const placement = place(servers, n);
  if (!placement.ok) throw new Error(placement.reason);
  return placement.server.label;
}

describe('place', () => {
  it("prefers the fewest of Atelier's requests in flight, then the server's own queue, then speed", () => {
    expect(chosen([server(0, { inFlight: 2 }), server(1, { inFlight: 1, queued: 9 })])).toBe('gpu-1');
    expect(chosen([server(0, { inFlight: 1, queued: 3 }), server(1, { inFlight: 1, queued: 1 })])).toBe('gpu-1');
    expect(chosen([server(0, { msPerImage: 900 }), server(1, { msPerImage: 300 })])).toBe('gpu-1');
    // Equal in everything: the settings' order decides, so the choice is the same every time.
    expect(chosen([server(0), server(1)])).toBe('gpu-0');
  });

  it('tries a server with no time yet before a slower one that has one', () => {
    expect(chosen([server(0, { msPerImage: 500 }), server(1)])).toBe('gpu-1');
  });

  it('never chooses a down server, however idle', () => {
    expect(chosen([server(0, { down: true }), server(1, { inFlight: 5, queued: 5 })])).toBe('gpu-1');
  });

  it('never chooses a server that lacks a checkpoint, LoRA, ControlNet model or node class the request needs', () => {
    const full = { checkpoints: new Set(['xl.safetensors']), loras: new Set(['ink']), controlnets: new Set(['canny']), nodeClasses: new Set(['KSampler']) };
    const servers = [
      server(0, { holds: { ...full, checkpoints: new Set(['sd15.safetensors']) } }),
      server(1, { holds: { ...full, loras: new Set() } }),
      server(2, { holds: { ...full, controlnets: new Set() } }),
      server(3, { holds: { ...full, nodeClasses: new Set() } }),
      server(4, { holds: full, inFlight: 7 }),
    ];
    const n = needs({ checkpoints: ['xl.safetensors'], loras: ['ink'], controlnets: ['canny'], nodeClasses: ['KSampler'] });
    expect(chosen(servers, n)).toBe('gpu-4');
  });

  it('takes a list a server has not given as no reason to exclude it', () => {
    expect(chosen([server(0, { holds: { loras: new Set() } }), server(1, { inFlight: 3 })], needs({ loras: ['ink'] }))).toBe('gpu-1');
  });

  it('says what is missing where when no server can take the request', () => {
    const servers = [
      server(0, { label: 'desk', holds: { checkpoints: new Set(['a']), loras: new Set() } }),
      server(1, { label: 'rented', holds: { checkpoints: new Set(['b']), loras: new Set(['ink']) } }),
    ];
    const placement = place(servers, needs({ checkpoints: ['a'], loras: ['ink'] }));
    expect(placement.ok).toBe(false);
    if (placement.ok) return;
    expect(placement.reason).toBe("no server can take this request: desk lacks LoRA 'ink'; rented lacks checkpoint 'a'");
    expect(placement.missing).toEqual([
      { server: 'desk', kind: 'loras', name: 'ink' },
      { server: 'rented', kind: 'checkpoints', name: 'a' },
    ]);
  });

  it('says so when the only servers that could take it are down', () => {
    const servers = [server(0, { label: 'desk', down: true }), server(1, { label: 'box', holds: { nodeClasses: new Set() } })];
    const placement = place(servers, needs({ nodeClasses: ['ControlNetApplyAdvanced'] }));
    expect(placement.ok).toBe(false);
    if (placement.ok) return;
    expect(placement.reason).toBe("no server can take this request: box lacks node class 'ControlNetApplyAdvanced'; desk has everything but is down");
    expect(placement.down).toEqual(['desk']);
    const allDown = place([server(0, { down: true }), server(1, { down: true })]);
    expect(allDown.ok ? '' : allDown.reason).toBe('no server can take this request: gpu-0, gpu-1 have everything but are down');
    expect(place([]).ok).toBe(false);
  });
});

describe('a pool of simulated servers', () => {
  it('spreads a fan-out over every server as requests start and end, the faster server taking more', () => {
    const pool = createPoolState(['fast', 'slow', 'mid'], () => 0);
    const speed = [100, 300, 200];
    // A simulated clock: each server finishes its request after its own time per image.
    const busyUntil: { id: number; at: number }[] = [];
    let clock = 0;
    const counts = [0, 0, 0];
    for (let item = 0; item < 60; item++) {
      // Keep at most one request in flight per server, as a person would see with a pool of three.
      while (busyUntil.length >= 3) {
        busyUntil.sort((a, b) => a.at - b.at);
        const done = busyUntil.shift()!;
        clock = done.at;
        pool.ended(done.id, { images: 1, ms: speed[done.id]! });
      }
      const placement = place(pool.views());
      if (!placement.ok) throw new Error(placement.reason);
      const id = placement.server.id;
      pool.started(id);
      counts[id]!++;
      busyUntil.push({ id, at: clock + speed[id]! });
    }
    expect(counts.every((c) => c > 0)).toBe(true);
    expect(counts[0]).toBeGreaterThan(counts[2]!);
    expect(counts[2]).toBeGreaterThan(counts[1]!);
    expect(pool.status().map((s) => s.inFlight)).toEqual([1, 1, 1]);
  });

  it('marks a server down, skips it, retries it with a growing delay and takes it back when it answers', () => {
    let t = 0;
    const pool = createPoolState(['a', 'b'], () => t);
    pool.down(0);
    expect(chosen([...pool.views()])).toBe('b');
    expect(pool.dueForRetry()).toEqual([]);
    t = retryDelay(1);
    expect(pool.dueForRetry()).toEqual([0]);
    pool.down(0); // the retry failed: the next one waits twice as long
    t += retryDelay(2) - 1;
    expect(pool.dueForRetry()).toEqual([]);
    t += 1;
    expect(pool.dueForRetry()).toEqual([0]);
    pool.up(0);
    expect(pool.status()[0]).toMatchObject({ label: 'a', down: false });
    expect(chosen([...pool.views()])).toBe('a');
    expect(retryDelay(40)).toBe(RETRY_MAX_MS);
  });

  it('counts the images each server made and never lets in-flight go below zero', () => {
    const pool = createPoolState(['a'], () => 0);
    pool.started(0);
    pool.ended(0, { images: 4, ms: 800 });
    pool.ended(0);
    expect(pool.status()).toEqual([{ label: 'a', inFlight: 0, queued: 0, down: false, made: 4 }]);
    expect(pool.views()[0]!.msPerImage).toBe(200);
    expect(() => pool.started(3)).toThrow(RangeError);
  });
});
