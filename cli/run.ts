/**
 * `atelier run`: prepares the workflow, opens the endpoints, runs it on the executor with the
 * events going to the output files, the manifest, stderr progress and (with --json) stdout, and
 * turns the outcome into an exit code. An interrupt aborts what is in flight and still writes
 * the partial outputs and the manifest.
 */
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { registry } from '../nodes/index';
import { previewNode } from '../nodes/preview';
import { createExecutor, DEFAULT_CONCURRENCY } from '../workers/executor';
import { internalizeImages } from '../assets/inline';
import { createMemoryAssetStore } from '../assets/store';
import type { ExecutorEvent, RunSummary } from '../workers/events';
import { withoutDistinctiveSecrets } from '../api/redact';
import { formatProblem } from '../workers/validate';
import { type RunArgs } from './args';
import { routeImageRequests, withListedNames } from '../api/backends/index';
import { needsWebSocket } from '../api/backends/describe';
import { BACKENDS } from '../api/backends/registry';
import { reportedMoneyText } from '../api/usage';
import { apisUsedBy } from '../nodes/api-use';
import { listRoutedNames } from './listed';
import { nodeWebSocket } from '../server/node-websocket';
import type { ImageClient } from '../api/client-types';
import { reviewOf } from '../workers/backend-review';
import { checkCredentials, resolveBackends } from './backends';
import { checkBaseUrl, openEndpoints } from './endpoints';
import { EXIT, type CliIo } from './io';
import { createImageEmbedder } from './embed';
import { eventLine } from './json-events';
import { createManifest, type Manifest } from './manifest';
import { createOutputWriter, createRunDir, runIdFor, type PortFiles } from './outputs';
import { prepareRun } from './prepare';
import { createProgress, formatDuration } from './progress';
import { recordRequests } from './requests';

/** Stands in for the service while the backends review a workflow before the run; never called. */
const NOT_SENT: ImageClient = { generate: () => Promise.reject(new Error('nothing is sent while a workflow is checked')) };

/** After an interrupt, how long the run may take to wind down before the results are written anyway. */
const WIND_DOWN_MS = 3000;

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** Resolves when the run ends, or WIND_DOWN_MS after an interrupt, whichever is first. */
function untilDoneOrWoundDown(run: Promise<RunSummary>, interrupt: AbortSignal): Promise<RunSummary | undefined> {
  return new Promise((resolveWait, rejectWait) => {
    let timer: NodeJS.Timeout | undefined;
    const onInterrupt = () => {
      timer = setTimeout(() => resolveWait(undefined), WIND_DOWN_MS);
    };
    if (interrupt.aborted) onInterrupt();
    else interrupt.addEventListener('abort', onInterrupt, { once: true });
    run.then(resolveWait, rejectWait).finally(() => {
      clearTimeout(timer);
      interrupt.removeEventListener('abort', onInterrupt);
    });
  });
}

export async function runCommand(args: RunArgs, io: CliIo, version: string): Promise<number> {
  const now = io.now ?? (() => new Date());
  const progress = createProgress(io.stderr);
  const say = (text: string) => progress.line(`atelier: ${text}`);

  // Command-line mistakes are reported before anything is read or started.
  if (args.imageBaseUrl !== undefined) checkBaseUrl('--image-base-url', args.imageBaseUrl);
  if (args.textBaseUrl !== undefined) checkBaseUrl('--text-base-url', args.textBaseUrl);
  const backends = await resolveBackends(args.backends, io.cwd);
  checkCredentials(backends, io.env);
  // What the backends cannot take, or name files they do not list, is a problem of the workflow,
  // found before anything starts.
  const backendToken = io.env.ATELIER_BACKEND_TOKEN?.trim();
  const listed = await listRoutedNames(backends, backendToken === '' ? undefined : backendToken);
  const prepared = await prepareRun(args, io.cwd, reviewOf(await withListedNames(await routeImageRequests(NOT_SENT, backends), backends, listed)));
  for (const warning of prepared.warnings) say(`warning: ${warning}`);

  const usesSocket = needsWebSocket(BACKENDS, Object.values(backends).map((b) => b.kind));
  const endpoints = await openEndpoints({
    imageBaseUrl: args.imageBaseUrl, textBaseUrl: args.textBaseUrl, backends, env: io.env, client: io.client,
    usesChat: apisUsedBy(prepared.workflow.nodes).text,
    ...(usesSocket ? { WebSocket: await nodeWebSocket() } : {}),
    log: (line) => say(line),
  });
  try {
    for (const note of endpoints.notes) say(`note: ${note}`);
    const started = now();
    const runId = runIdFor(started);
    const { dir, hadFiles } = await createRunDir(args.out === undefined ? undefined : resolve(io.cwd, args.out), resolve(io.cwd, 'atelier-out'), runId);
    const shownDir = shownPath(dir, io.cwd);
    if (hadFiles) say(`note: ${shownDir} already holds files; manifest.json lists the ones this run writes`);
    const recorder = recordRequests(endpoints.api);
    const concurrency = args.concurrency ?? DEFAULT_CONCURRENCY;
    // An in-memory asset store: the run holds the file's images by reference, as the editor's
    // document does, so the executor takes the very path it takes in the editor's worker. The
    // manifest and embedded workflows keep the file's own base64.
    const assets = createMemoryAssetStore();
    const executor = createExecutor({
      registry, api: recorder.api, settings: { chatModel: prepared.chatModel }, concurrency, assets,
      secrets: endpoints.secrets, cacheScope: endpoints.cacheScope,
      ...(args.maxFanOut === undefined ? {} : { maxFanOut: args.maxFanOut }),
    });
    const { workflow } = prepared;
    const manifest = createManifest({
      atelier: { version }, runId, workflow, file: args.file, endpoints: { image: endpoints.image, text: endpoints.text },
      chatModel: prepared.chatModel, concurrency, embedded: args.embed,
      scope: prepared.plan.mode === 'all' ? { mode: 'all' } : { mode: prepared.plan.mode, node: prepared.plan.nodeId },
      overrides: prepared.overrides.map((o) => ({ node: o.nodeId, param: o.param, value: o.value })),
      warnings: prepared.warnings,
    }, started);
    const embedWarnings: string[] = [];
    const embedder = args.embed
      ? createImageEmbedder({
        workflow, registry, atelierVersion: version, secrets: endpoints.secrets, now,
        callsOf: (nodeId) => recorder.callsOf(nodeId),
        warn: (text) => {
          embedWarnings.push(text);
          say(`warning: ${text}`);
        },
      })
      : undefined;
    // Texts are written as the nodes made them: the token is never in a request's body, so only a
    // server's error could echo it, and errors are redacted where they arise (api/redact.ts).
    const writer = createOutputWriter(dir, embedder ? { imageBytes: embedder.bytesFor } : {});
    const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
    const where = endpoints.image === endpoints.text ? endpoints.image : `image ${endpoints.image}, text ${endpoints.text}`;
    say(`running "${workflow.metadata.title}" on ${where === 'local' ? 'the local engines (in-process)' : where}; outputs in ${shownDir}`);

    const onEvent = (event: ExecutorEvent) => {
      recorder.onEvent(event);
      manifest.onEvent(event);
      embedder?.onEvent(event);
      let files: Record<string, PortFiles> | undefined;
      if (event.type === 'node-done' || event.type === 'node-item-done') {
        const node = byId.get(event.nodeId);
        const filename = node?.type === previewNode.type ? node.params.filename : undefined;
        const stem = typeof filename === 'string' && filename.trim() !== '' ? filename.trim() : undefined;
        // An item's files are written as it ends; the node's lists then point at them.
        files = writer.write(event.nodeId, event.outputs, stem, event.type === 'node-item-done' ? event.item : undefined);
        manifest.setOutputs(event.nodeId, files, event.type === 'node-item-done' ? event.item : undefined);
      }
      progress.onEvent(event);
      // Prompts, the model's text and file names go out as they are; errors came redacted.
      if (args.json) io.stdout.write(eventLine(event, files));
    };

    const interrupt = io.interrupt ?? new AbortController().signal;
    const run = executor.run(await internalizeImages(workflow, assets), { ...prepared.plan, concurrency, runId, signal: interrupt, onEvent });
    const summary = await untilDoneOrWoundDown(run, interrupt);
    // A Ctrl-C that lands after the last node ended interrupted nothing.
    const interrupted = interrupt.aborted && summary?.status !== 'succeeded' && summary?.status !== 'failed';

    const problems: string[] = [];
    await writer.flush().catch((error: unknown) => {
      problems.push(`writing the outputs failed: ${(error as Error).message}`);
    });
    for (const id of Object.keys(manifest.manifest.nodes)) manifest.setRequests(id, recorder.callsOf(id));
    const written = manifest.finish(now(), { summary, interrupted, files: writer.files, warnings: [...embedWarnings, ...problems] });
    await writeManifest(join(dir, 'manifest.json'), written, endpoints.secrets).catch((error: unknown) => {
      problems.push(`writing manifest.json failed: ${(error as Error).message}`);
    });

    // Checked before the run, so only a workflow that changed its mind could land here: say it all the same.
    if (summary?.status === 'invalid') {
      say(`the workflow cannot run (${summary.problems.length} problem${summary.problems.length === 1 ? '' : 's'}); nothing was sent`);
      for (const problem of summary.problems) say(`  ${formatProblem(problem)}`);
      return EXIT.failed;
    }
    // The run's own warnings (a cache that failed, a chat stream that closed without [DONE]).
    for (const warning of summary?.warnings ?? []) say(`warning: ${warning}`);
    for (const problem of problems) say(`error: ${problem}`);
    const money = summary === undefined ? undefined : reportedMoneyText(summary.usage);
    return report(written, { say, shownDir, interrupted, writeFailed: problems.length > 0, ...(money === undefined ? {} : { money }) });
  } finally {
    await endpoints.close();
  }
}

async function writeManifest(path: string, manifest: Manifest, secrets: readonly string[]): Promise<void> {
  // The manifest travels with the images: a real key pasted into a prompt is left out, as from the
  // embedded workflow; a token such as `text` is someone's words and stays.
  await writeFile(path, `${withoutDistinctiveSecrets(JSON.stringify(manifest, null, 2), secrets)}\n`);
}

/** The closing lines on stderr, and the exit code. */
function report(m: Manifest, o: { say: (text: string) => void; shownDir: string; interrupted: boolean; writeFailed: boolean; money?: string }): number {
  const records = Object.values(m.nodes);
  const count = (status: string) => records.filter((r) => r.status === status).length;
  const cached = records.filter((r) => r.cached).length;
  const took = formatDuration(m.durationMs ?? 0);
  const files = `${m.files.length} file${m.files.length === 1 ? '' : 's'} and manifest.json in ${o.shownDir}`;
  if (o.interrupted) {
    o.say(`interrupted after ${took}: ${count('done')} of ${records.length} nodes finished; ${files}`);
    return EXIT.interrupted;
  }
  if (m.failures.length > 0) {
    const skipped = count('skipped');
    o.say(`${m.failures.length} of ${records.length} node${records.length === 1 ? '' : 's'} failed${skipped > 0 ? `, ${skipped} skipped` : ''} (${took}); ${files}`);
    for (const f of m.failures) o.say(`  ${f.nodeId}: ${f.error.message}`);
    return EXIT.failed;
  }
  const cachedNote = cached > 0 ? `, ${cached} from the cache` : '';
  const money = o.money === undefined ? '' : ` (${o.money})`;
  o.say(`done in ${took}: ${records.length} node${records.length === 1 ? '' : 's'}${cachedNote}, ${m.apiCalls} API call${m.apiCalls === 1 ? '' : 's'}${money}; ${files}`);
  return o.writeFailed ? EXIT.failed : EXIT.ok;
}
