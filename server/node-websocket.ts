/**
 * A WebSocket constructor for Node (the CLI and the server): Node 20 has none built in, and
 * ComfyUI reports its steps over one. The `ws` package's class speaks the same events the
 * backend listens to (open, message, error, close), so it is handed over as the browser's type.
 * Kept apart from the backends so the editor's worker, which has the browser's, never loads it.
 */
export async function nodeWebSocket(): Promise<typeof globalThis.WebSocket> {
  const existing = (globalThis as { WebSocket?: typeof globalThis.WebSocket }).WebSocket;
  if (existing !== undefined) return existing;
  const { default: WebSocket } = await import('ws');
  return WebSocket as unknown as typeof globalThis.WebSocket;
}
