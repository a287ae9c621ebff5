/**
 * Entry point of `npm start` / `npm run dev`: reads the settings, starts the server, says where
 * everything is, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAtelierServer, secretsOf, type AtelierServer } from './app';
import { ConfigError, isLoopbackHost, loadConfig, type LoadedConfig } from './config';
import { LOCAL_CHAT_MODELS } from './engines/text';
import { createLogger } from './log';
import { BACKEND_LABEL } from '../api/backends/registry';

function fatal(message: string): never {
  process.stderr.write(`atelier: ${message}\n`);
  process.exit(1);
}

let loaded: LoadedConfig;
try {
  loaded = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fatal(error.message);
  throw error;
}
const { config, warnings } = loaded;
const logger = createLogger(secretsOf(config));

for (const warning of warnings) logger.warn(warning);
if (!isLoopbackHost(config.host)) {
  logger.warn(`HOST=${config.host} is not a loopback address: other machines on your network can reach the local engines${config.forwarder.token === undefined ? '' : ' and the forwarder (which spends your token)'}. Use HOST=127.0.0.1 unless you mean it.`);
}

// Handlers go in before anything is printed: a signal that arrives before them would kill the
// process outright, skipping the clean shutdown.
const running: { server?: AtelierServer } = {};
let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) process.exit(130);
  stopping = true;
  logger.info(`${signal}: stopping (requests in flight get 2 s to finish)`);
  await running.server?.close(2000);
  process.exit(0);
}
process.on('SIGINT', (s) => void stop(s));
process.on('SIGTERM', (s) => void stop(s));

const server = await createAtelierServer(config, { logger }).catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') fatal(`port ${config.port} on ${config.host} is already in use: stop the other process or set PORT (PORT=0 picks a free port)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') fatal(`cannot bind HOST=${config.host}: no such address on this machine`);
  if (code === 'EACCES') fatal(`not allowed to bind ${config.host}:${config.port}; use a port above 1023`);
  throw error;
});

running.server = server;
const { url } = server;
const forwardTo = (base: string | undefined, variable: string) => (base === undefined ? `off (set ${variable})` : `to ${new URL(base).host}`);
logger.info(`Atelier listening on ${url}`);
logger.info(`  editor:       ${url}/ ${existsSync(join(config.distDir, 'index.html')) ? '(built editor)' : '(not built: an info page)'}`);
logger.info(`  image engine: ${url}/local/image  (local stand-in, ${config.stepDelayMs} ms per step)`);
logger.info(`  text engine:  ${url}/local/text  (local stand-in, ${config.tokenDelayMs} ms per token; models ${LOCAL_CHAT_MODELS.join(', ')})`);
logger.info(`  local auth:   ${config.localToken === undefined ? 'any Bearer token or none' : 'Bearer token from ATELIER_LOCAL_TOKEN required'}`);
const routedEngines = Object.keys(config.forwarder.imageBackends).length;
const imageForward = config.forwarder.imageBaseUrl === undefined && routedEngines > 0
  ? `to backends (below)`
  : forwardTo(config.forwarder.imageBaseUrl, 'ATELIER_IMAGE_BASE_URL, or ATELIER_IMAGE_BACKEND for ComfyUI, AUTOMATIC1111 or OpenAI Images');
const textForward = config.forwarder.textBaseUrl === undefined
  ? 'to the local text engine (offline stand-in; set ATELIER_TEXT_BASE_URL for a real chat API)'
  : forwardTo(config.forwarder.textBaseUrl, 'ATELIER_TEXT_BASE_URL');
logger.info(`  forwarder:    image ${imageForward}, text ${textForward}`);
for (const [engine, backend] of Object.entries(config.forwarder.imageBackends)) {
  const where = backend.baseUrls !== undefined && backend.baseUrls.length > 1
    ? `a pool of ${backend.baseUrls.length} servers (${backend.baseUrls.map((s) => `${s.label} at ${new URL(s.url).host}`).join(', ')})`
    : `at ${new URL(backend.baseUrl).host}`;
  logger.info(`  backend:      ${engine} to ${BACKEND_LABEL[backend.kind]} ${where}${config.forwarder.backendToken === undefined ? '' : ' (with ATELIER_BACKEND_TOKEN)'}`);
}

