import { describe, expect, it } from 'vitest';
import { schedule, type ScheduleTask, type TaskSkipped, type TaskStatus } from '../../workers/schedule';

function harness(tasks: ScheduleTask[], outcome: Record<string, TaskStatus | TaskSkipped> = {}, concurrency = 2, abortOnStart?: string) {
  const log: string[] = [];
  let running = 0;
  let peak = 0;
  const controller = new AbortController();
  const done = schedule(tasks, {
    concurrency,
    signal: controller.signal,
    async execute(id) {
      running++;
      peak = Math.max(peak, running);
      log.push(`start ${id}`);
      if (id === abortOnStart) controller.abort();
      await new Promise((r) => setTimeout(r, 2));
      running--;
      log.push(`end ${id}`);
      return outcome[id] ?? 'done';
    },
    skip: (id, because, reason) => void log.push(`skip ${id} (${because}${reason === undefined ? '' : `: ${reason}`})`),
    cancel: (id) => void log.push(`cancel ${id}`),
  });
  return { done, log, peak: () => peak };
}

// a → b, a → c, b → d, c → d (a diamond), plus e alone.
const diamond: ScheduleTask[] = [
  { id: 'a', dependsOn: [] }, { id: 'b', dependsOn: ['a'] }, { id: 'c', dependsOn: ['a'] },
  { id: 'd', dependsOn: ['b', 'c'] }, { id: 'e', dependsOn: [] },
];

describe('schedule', () => {
  it('starts a task only after all it depends on, never more than the limit at once', async () => {
    const h = harness(diamond);
    await h.done;
    const at = (entry: string) => h.log.indexOf(entry);
    expect(at('start d')).toBeGreaterThan(Math.max(at('end b'), at('end c')));
    expect(at('start b')).toBeGreaterThan(at('end a'));
    expect(h.peak()).toBe(2);
    expect(h.log.filter((l) => l.startsWith('end'))).toHaveLength(5);
  });

  it('skips everything downstream of a failure once, and nothing else', async () => {
    const h = harness(diamond, { b: 'failed' });
    await h.done;
    expect(h.log.filter((l) => l.startsWith('skip'))).toEqual(['skip d (b)']);
    expect(h.log).toContain('end c');
    expect(h.log).toContain('end e');
  });

  it('passes the cause of a task that skipped itself on to everything downstream of it', async () => {
    const h = harness(diamond, { c: { skipped: true, because: 'x', reason: 'bypassed x has nothing' } });
    await h.done;
    expect(h.log.filter((l) => l.startsWith('skip'))).toEqual(['skip d (x: bypassed x has nothing)']);
    expect(h.log).toContain('end b');
  });

  it('on abort starts nothing new, and cancels what had not started once the running end', async () => {
    const h = harness(diamond, {}, 1, 'a');
    await h.done;
    expect(h.log.slice(0, 2)).toEqual(['start a', 'end a']);
    expect(h.log.filter((l) => l.startsWith('start'))).toEqual(['start a']);
    expect(h.log.filter((l) => l.startsWith('cancel')).sort()).toEqual(['cancel b', 'cancel c', 'cancel d', 'cancel e']);
  });

  it('runs one at a time when the limit is not a number', async () => {
    const h = harness(diamond, {}, Number.NaN);
    await h.done;
    expect(h.peak()).toBe(1);
    expect(h.log.filter((l) => l.startsWith('end'))).toHaveLength(5);
  });

  it('finishes at once with no tasks', async () => {
    await expect(harness([]).done).resolves.toBeUndefined();
  });
});
