/**
 * Runs tasks of a dependency graph with at most `concurrency` at once: a task starts when every
 * task it depends on is done; a failure skips everything downstream of it and nothing else (a
 * task that reports itself skipped does the same, passing its cause on); an abort starts nothing
 * new and lets the running tasks end (they watch the same signal).
 */

export interface ScheduleTask {
  id: string;
  dependsOn: readonly string[];
}

export type TaskStatus = 'done' | 'failed' | 'cancelled';

/** A task that decided not to run: everything downstream is skipped for the same cause. */
export interface TaskSkipped {
  skipped: true;
  /** The task at the root of it. */
  because: string;
  reason: string;
}

export interface ScheduleOptions {
  concurrency: number;
  signal: AbortSignal;
  /** Runs one task whose dependencies are all done. A throw counts as a failure. */
  execute(id: string): Promise<TaskStatus | TaskSkipped>;
  /**
   * `id` will not run because `because`, upstream of it, failed (no `reason`) or skipped itself
   * (its `reason`).
   */
  skip(id: string, because: string, reason?: string): void;
  /** `id` had not started when the signal aborted. */
  cancel(id: string): void;
}

/** Resolves once every task has run, been skipped or been cancelled. Never rejects. */
export function schedule(tasks: readonly ScheduleTask[], options: ScheduleOptions): Promise<void> {
  const { signal, execute } = options;
  // A setting gone wrong (NaN, 0) still runs one at a time rather than nothing at all.
  const concurrency = Number.isNaN(options.concurrency) ? 1 : Math.max(1, Math.floor(options.concurrency));
  const waitingOn = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const task of tasks) {
    waitingOn.set(task.id, task.dependsOn.length);
    dependents.set(task.id, []);
  }
  for (const task of tasks) for (const dep of task.dependsOn) dependents.get(dep)?.push(task.id);

  const ready: string[] = tasks.filter((t) => t.dependsOn.length === 0).map((t) => t.id);
  let next = 0;
  const finished = new Set<string>();
  let running = 0;

  return new Promise<void>((resolve) => {
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      signal.removeEventListener('abort', pump);
      for (const task of tasks) {
        if (!finished.has(task.id)) {
          finished.add(task.id);
          options.cancel(task.id);
        }
      }
      resolve();
    };

    const skipDownstream = (from: string, because: string, reason?: string) => {
      const stack = [...(dependents.get(from) ?? [])];
      for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
        if (finished.has(id)) continue;
        finished.add(id);
        options.skip(id, because, reason);
        stack.push(...(dependents.get(id) ?? []));
      }
    };

    const settle = (id: string, status: TaskStatus | TaskSkipped) => {
      running--;
      finished.add(id);
      if (typeof status === 'object') {
        skipDownstream(id, status.because, status.reason);
      } else if (status === 'done') {
        for (const d of dependents.get(id) ?? []) {
          const left = waitingOn.get(d)! - 1;
          waitingOn.set(d, left);
          if (left === 0 && !finished.has(d)) ready.push(d);
        }
      } else if (status === 'failed') {
        skipDownstream(id, id);
      }
      pump();
    };

    function pump() {
      while (!signal.aborted && running < concurrency && next < ready.length) {
        const id = ready[next++]!;
        running++;
        execute(id).then((status) => settle(id, status), () => settle(id, 'failed'));
      }
      if (running === 0 && (signal.aborted || next >= ready.length)) finish();
    }

    signal.addEventListener('abort', pump);
    pump();
  });
}
