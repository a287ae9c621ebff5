/**
 * ComfyUI's WebSocket (`GET /ws?clientId=`, server.py): JSON messages `{type, data}` for the
 * prompts queued with that client id (`execution_start`, `executing`, `progress`,
 * `execution_error`, `execution_success`…). Binary frames (previews) are ignored. Opened before
 * the prompt is queued so no message is missed; the credential never goes into its URL.
 */

export interface ComfyMessage {
  type: string;
  data: Record<string, unknown>;
}

/** Messages as they arrive, read by the run's watcher; `closed` once the socket is gone. */
export class MessageFeed {
  closed = false;
  private queue: ComfyMessage[] = [];
  private wakers = new Set<() => void>();

  constructor(private readonly socket: WebSocket) {
    socket.binaryType = 'arraybuffer';
    socket.addEventListener('message', (event: MessageEvent) => {
      if (typeof event.data !== 'string') return;
      try {
        const message = JSON.parse(event.data) as unknown;
        if (typeof message === 'object' && message !== null && typeof (message as ComfyMessage).type === 'string') {
          const { type, data } = message as { type: string; data?: unknown };
          this.queue.push({ type, data: typeof data === 'object' && data !== null ? data as Record<string, unknown> : {} });
          this.wake();
        }
      } catch {
        // Not JSON: nothing ComfyUI sends as text, so nothing to act on.
      }
    });
    const gone = () => { this.closed = true; this.wake(); };
    socket.addEventListener('close', gone);
    socket.addEventListener('error', gone);
  }

  /** Takes every message received so far. */
  drain(): ComfyMessage[] {
    const messages = this.queue;
    this.queue = [];
    return messages;
  }

  /** Registers a callback for the next message or close; returns its removal. */
  onWake(waker: () => void): () => void {
    if (this.queue.length > 0 || this.closed) {
      waker();
      return () => {};
    }
    this.wakers.add(waker);
    return () => { this.wakers.delete(waker); };
  }

  close(): void {
    this.closed = true;
    try {
      this.socket.close();
    } catch {
      // Closing a socket that never opened may throw; it is gone either way.
    }
  }

  private wake(): void {
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const waker of wakers) waker();
  }
}

/** `ws(s)://host/base/ws?clientId=…` for an `http(s)://host/base` base URL. */
export function socketUrl(baseUrl: string, clientId: string): string {
  const url = new URL(baseUrl.trim());
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/ws`;
  url.search = `?clientId=${encodeURIComponent(clientId)}`;
  url.hash = '';
  return url.href;
}

/**
 * Opens the socket; resolves with its feed once open, or undefined when it cannot open within
 * `deadlineMs` (a proxy that refuses it, an old server): the run then polls instead.
 */
export function openFeed(Socket: typeof WebSocket, url: string, deadlineMs: number, signal?: AbortSignal): Promise<MessageFeed | undefined> {
  return new Promise((resolve) => {
    let socket: WebSocket;
    try {
      socket = new Socket(url);
    } catch {
      resolve(undefined);
      return;
    }
    const feed = new MessageFeed(socket);
    const finish = (result: MessageFeed | undefined) => {
      clearTimeout(timer);
      socket.removeEventListener('open', onOpen);
      socket.removeEventListener('error', onFail);
      socket.removeEventListener('close', onFail);
      signal?.removeEventListener('abort', onFail);
      if (result === undefined) feed.close();
      resolve(result);
    };
    const onOpen = () => finish(feed);
    const onFail = () => finish(undefined);
    const timer = setTimeout(onFail, deadlineMs);
    socket.addEventListener('open', onOpen);
    socket.addEventListener('error', onFail);
    socket.addEventListener('close', onFail);
    signal?.addEventListener('abort', onFail, { once: true });
  });
}
