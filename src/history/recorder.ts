/**
 * Turns what runs make into history entries: the outputs of every node that called an API
 * (images, chat text), and what a Preview shows when it did not come straight from such a node
 * recorded in the same run (a loaded image, a text). Results served from the cache are not new
 * and are not recorded again. Each run's workflow, as it was run with the seeds it used pinned,
 * is saved with its entries.
 */
import type { NodeRegistry } from '../../nodes/index';
import { CHAT_NODE_TYPES, IMAGE_NODE_TYPES } from '../../nodes/api-use';
import { serializeWorkflow } from '../../workflow/serialize';
import type { Workflow } from '../../workflow/schema';
import type { RunRecord } from '../run/controller';
import type { NodeResult } from '../run/run-state';
import { imagesOf } from '../results/object-urls';
import { sha256OfBlob } from './digest';
import { makeThumbnail } from './thumbnail';
import type { HistoryEntry, HistoryRun, HistoryStore } from './types';

/** Text kept whole up to this length; longer text (a pasted document) is cut, and says so. */
const MAX_TEXT = 20_000;
const MAX_PARAM_TEXT = 2_000;
const BASE64ISH = /^(?:data:[\w/+.-]+;base64,)?[A-Za-z0-9+/=\r\n]+$/;

/** Parameters as the history shows them: image data and very long text replaced by what they are. */
export function shortParams(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (value.length > 256 && BASE64ISH.test(value.slice(0, 4096))) return `(image data, ${Math.round((value.length * 3) / 4 / 1024)} kB)`;
    return value.length > MAX_PARAM_TEXT ? `${value.slice(0, MAX_PARAM_TEXT)}… (${value.length} characters)` : value;
  }
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => shortParams(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortParams(v, depth + 1)]));
}

export interface RecorderDeps {
  store: HistoryStore;
  registry: NodeRegistry;
  /** A run's workflow with the seeds it used pinned, where they would not repeat (the run worker's: RunController.pinSeeds). */
  pinSeeds(workflow: Workflow, used: ReadonlyMap<string, number>): Promise<Workflow>;
  /** Tells this page's runs apart from another page's in the shared database. */
  pageKey?: string;
  now?: () => number;
}

export interface Recorder {
  /** Records a node's fresh result; resolves once it is stored. */
  record(nodeId: string, run: RunRecord, result: NodeResult): Promise<void>;
}

export function createRecorder(deps: RecorderDeps): Recorder {
  const pageKey = deps.pageKey ?? crypto.randomUUID();
  const now = deps.now ?? Date.now;
  const recorded = new Map<string, Set<string>>();
  const saved = new Map<string, { entry: Promise<{ record: HistoryRun; workflow: Workflow }>; seeds: number }>();
  let writes: Promise<void> = Promise.resolve();

  /**
   * The run's record, its workflow with the seeds used so far pinned (pinSeedsUsed): written
   * again, as a new object, whenever a node that ended since has added a seed, so the record the
   * store keeps last holds every seed the run's recorded outputs depend on.
   */
  const runOf = (run: RunRecord): Promise<{ record: HistoryRun; workflow: Workflow }> => {
    const known = saved.get(run.runId);
    if (known && known.seeds === run.seeds.size) return known.entry;
    const at = known ? known.entry.then((e) => e.record.at) : Promise.resolve(now());
    const entry = Promise.all([deps.pinSeeds(run.workflow, new Map(run.seeds)), at]).then(([workflow, since]) => {
      let text: string;
      try {
        text = serializeWorkflow(workflow);
      } catch {
        // A snapshot that would not save cannot be reopened; its outputs are still kept.
        text = '';
      }
      return { record: { key: `${pageKey}:${run.runId}`, at: since, title: run.workflow.metadata.title, workflow: text }, workflow };
    });
    saved.set(run.runId, { entry, seeds: run.seeds.size });
    return entry;
  };

  /** Whether the node's output is worth a history entry (see the module comment). */
  const wanted = (nodeId: string, type: string, run: RunRecord, done: Set<string>): boolean => {
    if (IMAGE_NODE_TYPES.has(type) || CHAT_NODE_TYPES.has(type)) return true;
    if (type !== 'preview') return false;
    const source = run.workflow.edges.find((e) => e.target.node === nodeId)?.source.node;
    return source === undefined || !done.has(source);
  };

  async function entriesOf(nodeId: string, workflow: Workflow, run: RunRecord, result: NodeResult, historyRun: HistoryRun): Promise<HistoryEntry[]> {
    // The pinned node: its parameters say which seed made the output.
    const node = workflow.nodes.find((n) => n.id === nodeId);
    if (!node) return [];
    const def = deps.registry.get(node.type);
    const base = {
      runKey: historyRun.key,
      at: now(),
      nodeId,
      nodeType: node.type,
      nodeLabel: node.title?.trim() || def?.title || node.id,
      ...(def ? { typeVersion: def.version } : {}),
      params: shortParams(node.params) as Record<string, unknown>,
      calls: run.calls.get(nodeId) ?? [],
    };
    const images = imagesOf(result.outputs).filter((img) => img.blob !== undefined);
    const out: HistoryEntry[] = [];
    for (const [index, img] of images.entries()) {
      const image = img.blob!;
      const [sha256, thumb] = await Promise.all([sha256OfBlob(image), makeThumbnail(image, img)]);
      out.push({
        ...base, kind: 'image', image, thumb, mime: img.mime, sha256, index, count: images.length,
        ...(img.width === undefined ? {} : { width: img.width }),
        ...(img.height === undefined ? {} : { height: img.height }),
        ...(img.seed === undefined ? {} : { seed: img.seed }),
        ...(img.madeOn === undefined ? {} : { madeOn: img.madeOn }),
      });
    }
    for (const [port, value] of Object.entries(result.outputs)) {
      if (value.kind !== 'text' && value.kind !== 'number') continue;
      const text = String(value.value);
      out.push({ ...base, kind: 'text', port, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text });
    }
    return out;
  }

  return {
    record(nodeId, run, result) {
      const type = run.workflow.nodes.find((n) => n.id === nodeId)?.type;
      let done = recorded.get(run.runId);
      if (!done) recorded.set(run.runId, (done = new Set()));
      // Decided now, in event order: a Preview after its source knows the source was recorded.
      if (type === undefined || !wanted(nodeId, type, run, done)) return writes;
      done.add(nodeId);
      const work = runOf(run).then(async ({ record: historyRun, workflow }) => ({ historyRun, entries: await entriesOf(nodeId, workflow, run, result, historyRun) }));
      // In order, and one failed write does not stop the ones after it.
      const next = writes.then(async () => {
        const { historyRun, entries } = await work;
        await deps.store.add(historyRun, entries);
      });
      writes = next.catch(() => undefined);
      return next;
    },
  };
}
