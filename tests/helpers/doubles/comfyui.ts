/**
 * A ComfyUI for tests: a real HTTP and WebSocket server on 127.0.0.1, written from server.py and
 * execution.py (Comfy-Org/ComfyUI). Routes: POST /prompt (validated as the real one validates,
 * 400 with `{error, node_errors}`), GET /queue, POST /queue (delete, clear), POST /interrupt (with
 * or without prompt_id), GET /history[/{id}], GET /view, POST /upload/image (multipart), GET
 * /object_info[/{class}], GET /embeddings, GET /system_stats, GET /ws?clientId=, all also under
 * /api. One prompt runs at a time, step by step; a test can hold a run at its sampler steps,
 * plan an out-of-memory failure, and inspect everything received.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { nodeClasses, nodeInfo, type Models } from './comfyui-nodes';
import { runPrompt, type HistoryEntry, type PlannedFailure, type QueueItem } from './comfyui-run';
import { empty, json, upload, view, type Upload } from './comfyui-files';
import { validatePrompt } from './comfyui-validate';

export interface ComfyDoubleOptions {
  checkpoints?: string[];
  loras?: string[];
  vaes?: string[];
  controlnets?: string[];
  embeddings?: string[];
  unets?: string[];
  textEncoders?: string[];
  upscalers?: string[];
  /** As `--enable-cors-header ORIGIN`; without it, a loopback Host with another Origin gets 403. */
  corsOrigin?: string;
  /** false: /ws refuses the upgrade (a proxy without WebSockets), so clients must poll. */
  webSocket?: boolean;
  /** Node classes this ComfyUI lacks (an older version). */
  without?: string[];
  /** `progress` messages without prompt_id, as main.py's hook sent them before 2024. */
  progressWithoutPromptId?: boolean;
  /**
   * A GPU's fixed time per image: each run first waits this many ms times its batch size (the
   * largest `batch_size` input of the prompt, 1 without one). Off by default: runs are immediate.
   */
  msPerImage?: number;
}

export type { Upload };

export interface ComfyDouble {
  url: string;
  received: {
    requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
    prompts: Record<string, unknown>[];
    uploads: Upload[];
    interrupts: (string | undefined)[];
    deleted: string[];
  };
  inputs: Map<string, Uint8Array>;
  history: Map<string, HistoryEntry>;
  queue(): { running: QueueItem | undefined; pending: QueueItem[] };
  /** The next node of `classType` to run fails (out of memory, or another exception). */
  failNext(failure: PlannedFailure): void;
  /** Runs wait before sampler step `atStep` (1 by default) until `release()` (or an interrupt). */
  hold(atStep?: number): void;
  release(): void;
  /** Resolves once `predicate` holds, checked at every change (a request, a step, a run's end). */
  until(predicate: () => boolean): Promise<void>;
  /** The step a run waits at, while held. */
  waiting(): { promptId: string; step: number } | undefined;
  close(): Promise<void>;
}

/** The images one run makes at once: the largest `batch_size` among its nodes, at least 1. */
function batchOf(item: QueueItem): number {
  const sizes = Object.values(item.prompt).map((node) => Number(node.inputs.batch_size ?? 1));
  return Math.max(1, ...sizes.filter((n) => Number.isFinite(n)));
}

export async function startComfyDouble(options: ComfyDoubleOptions = {}): Promise<ComfyDouble> {
  const models: Models = {
    checkpoints: options.checkpoints ?? ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors'],
    loras: options.loras ?? ['detail-tweaker.safetensors'],
    vaes: options.vaes ?? ['sdxl_vae.safetensors'],
    controlnets: options.controlnets ?? ['diffusers_xl_canny_full.safetensors', 'diffusers_xl_depth_full.safetensors'],
    embeddings: options.embeddings ?? ['easynegative.safetensors'],
    unets: options.unets ?? ['flux1-dev.safetensors', 'flux1-schnell.safetensors'],
    textEncoders: options.textEncoders ?? ['clip_l.safetensors', 'clip_g.safetensors', 't5xxl_fp16.safetensors', 't5xxl_fp8_e4m3fn.safetensors'],
    upscalers: options.upscalers ?? ['RealESRGAN_x2.pth', 'RealESRGAN_x4plus.pth'],
    inputs: new Map(),
  };
  const classes = () => {
    const all = nodeClasses(models);
    for (const name of options.without ?? []) delete all[name];
    return all;
  };
  const outputs = new Map<string, Uint8Array>();
  const history = new Map<string, HistoryEntry>();
  const received: ComfyDouble['received'] = { requests: [], prompts: [], uploads: [], interrupts: [], deleted: [] };
  let pending: QueueItem[] = [];
  let running: QueueItem | undefined;
  let number = 0;
  let interruptFlag = false;
  let failure: PlannedFailure | undefined;
  let holdAt: number | undefined;
  let waitingAt: { promptId: string; step: number; go: () => void } | undefined;
  const watchers = new Set<() => void>();
  const changed = () => { for (const w of [...watchers]) w(); };
  const sockets = new Map<string, WebSocket>();

  const queueRemaining = () => pending.length + (running === undefined ? 0 : 1);
  const send = (event: string, data: Record<string, unknown>, sid: string | undefined) => {
    const { prompt_id: _, ...old } = data;
    const message = JSON.stringify({ type: event, data: event === 'progress' && options.progressWithoutPromptId === true ? old : data });
    if (sid === undefined) for (const ws of sockets.values()) ws.send(message);
    else sockets.get(sid)?.send(message);
  };
  const queueUpdated = () => { send('status', { status: { exec_info: { queue_remaining: queueRemaining() } } }, undefined); changed(); };
  const tuple = (item: QueueItem) => [item.number, item.promptId, item.prompt, item.extraData, item.outputs];

  async function pump(): Promise<void> {
    if (running !== undefined || pending.length === 0) return;
    pending.sort((a, b) => a.number - b.number);
    const item = pending.shift() as QueueItem;
    running = item;
    interruptFlag = false;
    queueUpdated();
    if (options.msPerImage !== undefined) await new Promise((resolve) => setTimeout(resolve, options.msPerImage! * batchOf(item)));
    const entry = await runPrompt(item, {
      classes: classes(), inputs: models.inputs, outputs, send,
      interrupted: () => interruptFlag,
      takeFailure: (classType) => {
        if (failure?.classType !== classType) return undefined;
        const planned = failure;
        failure = undefined;
        return planned;
      },
      beforeStep: async (promptId, _node, step) => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (holdAt === undefined || step < holdAt || interruptFlag) return;
        await new Promise<void>((go) => { waitingAt = { promptId, step, go }; changed(); });
      },
    });
    history.set(item.promptId, entry);
    running = undefined;
    queueUpdated();
    const sid = item.extraData.client_id;
    if (typeof sid === 'string') send('executing', { node: null, prompt_id: item.promptId }, sid);
    changed();
    await pump();
  }

  const releaseWaiting = () => {
    const w = waitingAt;
    waitingAt = undefined;
    w?.go();
  };

  async function route(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://double');
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    const method = req.method ?? 'GET';
    const parse = (): Record<string, unknown> | undefined => {
      try { return JSON.parse(body.toString('utf8')) as Record<string, unknown>; } catch { return undefined; }
    };
    if (method === 'POST' && path === '/prompt') {
      const data = parse();
      if (data === undefined) return empty(res, 500);
      received.prompts.push(structuredClone(data));
      const n = typeof data.number === 'number' ? data.number : (data.front === true ? -number : number);
      if (typeof data.number !== 'number') number++;
      if (!('prompt' in data)) return json(res, 400, { error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: {} });
      const promptId = String(data.prompt_id ?? randomUUID());
      const prompt = (typeof data.prompt === 'object' && data.prompt !== null ? data.prompt : {}) as QueueItem['prompt'];
      const valid = validatePrompt(prompt, classes());
      if (!valid.ok) return json(res, 400, { error: valid.error, node_errors: valid.nodeErrors });
      const extraData = { ...(data.extra_data as Record<string, unknown> | undefined), ...(data.client_id === undefined ? {} : { client_id: data.client_id }) };
      pending.push({ number: n, promptId, prompt, extraData, outputs: valid.outputs });
      queueUpdated();
      json(res, 200, { prompt_id: promptId, number: n, node_errors: valid.nodeErrors });
      void pump();
      return;
    }
    if (method === 'GET' && path === '/prompt') return json(res, 200, { exec_info: { queue_remaining: queueRemaining() } });
    if (method === 'GET' && path === '/queue') return json(res, 200, { queue_running: running === undefined ? [] : [tuple(running)], queue_pending: pending.map(tuple) });
    if (method === 'POST' && path === '/queue') {
      const data = parse() ?? {};
      if (data.clear === true) pending = [];
      for (const id of Array.isArray(data.delete) ? data.delete : []) {
        received.deleted.push(String(id));
        pending = pending.filter((item) => item.promptId !== id);
      }
      queueUpdated();
      return empty(res, 200);
    }
    if (method === 'POST' && path === '/interrupt') {
      const promptId = parse()?.prompt_id;
      received.interrupts.push(typeof promptId === 'string' ? promptId : undefined);
      if (typeof promptId !== 'string' || promptId === '' || running?.promptId === promptId) {
        interruptFlag = true;
        releaseWaiting();
      }
      changed();
      return empty(res, 200);
    }
    if (method === 'GET' && path === '/history') return json(res, 200, Object.fromEntries(history));
    const historyId = /^\/history\/(.+)$/.exec(path)?.[1];
    if (method === 'GET' && historyId !== undefined) {
      const entry = history.get(decodeURIComponent(historyId));
      return json(res, 200, entry === undefined ? {} : { [decodeURIComponent(historyId)]: entry });
    }
    if (method === 'GET' && path === '/view') return view(url, res, models.inputs, outputs);
    if (method === 'POST' && path === '/upload/image') return upload(req, res, body, models.inputs, received.uploads);
    if (method === 'GET' && path === '/object_info') return json(res, 200, Object.fromEntries(Object.entries(classes()).map(([k, c]) => [k, nodeInfo(k, c)])));
    const infoClass = /^\/object_info\/(.+)$/.exec(path)?.[1];
    if (method === 'GET' && infoClass !== undefined) {
      const cls = classes()[decodeURIComponent(infoClass)];
      return json(res, 200, cls === undefined ? {} : { [decodeURIComponent(infoClass)]: nodeInfo(decodeURIComponent(infoClass), cls) });
    }
    if (method === 'GET' && path === '/embeddings') return json(res, 200, models.embeddings.map((e) => e.replace(/\.[^.]+$/, '')));
    if (method === 'GET' && path === '/system_stats') {
      return json(res, 200, { system: { os: 'posix', comfyui_version: '0.3.64', python_version: '3.12.3', pytorch_version: '2.8.0' }, devices: [{ name: 'cuda:0 Test GPU', type: 'cuda', index: 0, vram_total: 8589934592, vram_free: 7516192768 }] });
    }
    empty(res, 404);
  }

  /** server.py's origin_only_middleware, or the CORS one with --enable-cors-header. */
  function originAllowed(req: IncomingMessage, res: ServerResponse): boolean {
    if (options.corsOrigin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', options.corsOrigin);
      res.setHeader('Access-Control-Allow-Methods', 'POST, GET, DELETE, PUT, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization');
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      return true;
    }
    const { host, origin } = req.headers;
    if (host === undefined || origin === undefined) return true;
    const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(host);
    return !loopback || new URL(origin).host === host;
  }

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      received.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
      changed();
      if (!originAllowed(req, res)) return empty(res, 403);
      if (req.method === 'OPTIONS') return empty(res, 200);
      route(req, res, Buffer.concat(parts)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
      });
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket: Socket, head) => {
    const url = new URL(req.url ?? '/', 'http://double');
    received.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    if (options.webSocket === false || url.pathname.replace(/^\/api/, '') !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const sid = url.searchParams.get('clientId') || randomUUID().replace(/-/g, '');
      sockets.set(sid, ws);
      ws.on('close', () => { if (sockets.get(sid) === ws) sockets.delete(sid); });
      ws.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: queueRemaining() } }, sid } }));
    });
  });
  const connections = new Set<Socket>();
  server.on('connection', (socket) => { connections.add(socket); socket.on('close', () => connections.delete(socket)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    inputs: models.inputs,
    history,
    queue: () => ({ running, pending: [...pending] }),
    failNext: (planned) => { failure = planned; },
    hold: (atStep = 1) => { holdAt = atStep; },
    release: () => { holdAt = undefined; releaseWaiting(); },
    waiting: () => (waitingAt === undefined ? undefined : { promptId: waitingAt.promptId, step: waitingAt.step }),
    until: (predicate) => new Promise((resolve) => {
      const check = () => { if (predicate()) { watchers.delete(check); resolve(); } };
      watchers.add(check);
      check();
    }),
    async close() {
      holdAt = undefined;
      releaseWaiting();
      for (const ws of wss.clients) ws.terminate();
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
