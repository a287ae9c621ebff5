/**
 * Graph algorithms over node ids and directed links, free of node definitions: topological
 * order, cycle detection with the path of each cycle, ancestors and descendants.
 */

export interface Link {
  source: string;
  target: string;
}

/** Node id → ids it links to (or from, for `reverse`), each list in link order, duplicates removed. */
export function adjacency(ids: Iterable<string>, links: readonly Link[], reverse = false): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of ids) out.set(id, []);
  for (const link of links) {
    const from = reverse ? link.target : link.source;
    const to = reverse ? link.source : link.target;
    const list = out.get(from);
    if (list && out.has(to) && !list.includes(to)) list.push(to);
  }
  return out;
}

/** Every node reachable from `start` (start included) following `next`. */
export function reachable(start: string, next: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    for (const n of next.get(id) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return seen;
}

/**
 * Kahn's algorithm, stable: among nodes ready at the same time the one listed first in `ids`
 * comes first, so a plan reads in the order the workflow lists its nodes. Nodes on or behind
 * a cycle are left out and returned in `blocked`.
 */
export function topologicalOrder(ids: readonly string[], links: readonly Link[]): { order: string[]; blocked: string[] } {
  const next = adjacency(ids, links);
  const rank = new Map(ids.map((id, i) => [id, i]));
  const indegree = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const targets of next.values()) for (const t of targets) indegree.set(t, (indegree.get(t) ?? 0) + 1);

  // Ready nodes sit in a binary heap by rank: a plain sort per step is quadratic on long chains.
  const heap: string[] = [];
  const less = (a: string, b: string) => rank.get(a)! < rank.get(b)!;
  const push = (id: string) => {
    heap.push(id);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  };
  const pop = (): string | undefined => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last !== undefined) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  };

  for (const id of ids) if (indegree.get(id) === 0) push(id);
  const order: string[] = [];
  for (let id = pop(); id !== undefined; id = pop()) {
    order.push(id);
    for (const t of next.get(id) ?? []) {
      const d = indegree.get(t)! - 1;
      indegree.set(t, d);
      if (d === 0) push(t);
    }
  }
  const placed = new Set(order);
  return { order, blocked: ids.filter((id) => !placed.has(id)) };
}

/**
 * For every node that lies on a cycle, one shortest cycle through it, as the list of node ids
 * starting and ending with that node. Nodes merely downstream of a cycle are not included.
 */
export function cyclesThrough(ids: readonly string[], links: readonly Link[]): Map<string, string[]> {
  const { blocked } = topologicalOrder(ids, links);
  const candidates = new Set(blocked);
  const next = adjacency(blocked, links);
  const cycles = new Map<string, string[]>();
  for (const start of blocked) {
    // Breadth-first back to `start` among the blocked nodes: every cycle lies within them.
    const parent = new Map<string, string>();
    const queue = [start];
    let found = false;
    for (let i = 0; i < queue.length && !found; i++) {
      const id = queue[i]!;
      for (const n of next.get(id) ?? []) {
        if (!candidates.has(n)) continue;
        if (n === start) {
          parent.set(start, id);
          found = true;
          break;
        }
        if (!parent.has(n)) {
          parent.set(n, id);
          queue.push(n);
        }
      }
    }
    if (!found) continue;
    const path = [start];
    for (let id = parent.get(start)!; id !== start; id = parent.get(id)!) path.push(id);
    path.push(start);
    // Walked backwards from the closing link; read it forwards.
    cycles.set(start, [start, ...path.slice(1, -1).reverse(), start]);
  }
  return cycles;
}
