/**
 * The page at `/` until the editor is built: what is running, where, and how to use it.
 */
import { createHash } from 'node:crypto';
import { LOCAL_CHAT_MODELS } from '../engines/text';
import { type ServerConfig } from '../config';
import { FORWARD_IMAGE_BASE, FORWARD_TEXT_BASE } from './forwarder';
import { IMAGE_STAND_IN_NOTE, LOCAL_IMAGE_BASE } from './local-image';
import { LOCAL_TEXT_BASE, TEXT_STAND_IN_NOTE } from './local-text';

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}code{background:#f2f2f2;padding:0 .25em;border-radius:3px}h2{margin-top:1.6em;font-size:1.15em}';

/** The landing page runs no script at all; its one style element is allowed by its hash. */
export const LANDING_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function landingPage(config: ServerConfig, origin: string): string {
  const e = escapeHtml;
  const imageUrl = `${origin}${LOCAL_IMAGE_BASE}`;
  const textUrl = `${origin}${LOCAL_TEXT_BASE}`;
  const auth = config.localToken === undefined
    ? 'Any <code>Authorization: Bearer</code> token, or none, is accepted.'
    : 'A token is required: send <code>Authorization: Bearer</code> with the value of <code>ATELIER_LOCAL_TOKEN</code>.';
  const forward = (label: string, base: string | undefined, path: string) =>
    base === undefined
      ? `<li>${label}: off (set <code>${label === 'image' ? 'ATELIER_IMAGE_BASE_URL' : 'ATELIER_TEXT_BASE_URL'}</code>)</li>`
      : `<li>${label}: <code>${e(origin + path)}</code> forwards to <code>${e(new URL(base).host)}</code></li>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Atelier local server</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Atelier local server</h1>
<p>The server is running (version ${e(config.version)}). The editor is not built yet: <code>npm start</code> builds it when its sources are present.</p>
<h2>Local engines</h2>
<p>${e(IMAGE_STAND_IN_NOTE)}</p>
<ul>
<li>Image base URL: <code>${e(imageUrl)}</code> (<code>POST /generate/sdxl</code>, <code>/generate/sd</code>, <code>/generate/controlnet-sdxl</code>; <a href="${e(LOCAL_IMAGE_BASE)}">description</a>)</li>
<li>Text base URL: <code>${e(textUrl)}</code> (<code>POST /v1/chat/completions</code>, <code>GET /v1/models</code>; OpenAI-compatible clients use <code>${e(textUrl)}/v1</code>)</li>
<li>Models listed: ${LOCAL_CHAT_MODELS.map((m) => `<code>${e(m)}</code>`).join(', ')}; any other model name is answered too, and reported back</li>
</ul>
<p>${e(TEXT_STAND_IN_NOTE)}</p>
<p>${auth}</p>
<h2>Forwarder to the real service</h2>
<ul>
${forward('image', config.forwarder.imageBaseUrl, `${FORWARD_IMAGE_BASE}/generate/{engine}`)}
${forward('text', config.forwarder.textBaseUrl, `${FORWARD_TEXT_BASE}/v1/chat/completions`)}
</ul>
<p>Settings for the editor: <a href="/api/info"><code>/api/info</code></a>.</p>
</body>
</html>
`;
}
