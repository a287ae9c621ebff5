/** The service's own API as a backend: what it says of itself (index.ts is the code). */
import { describeBackend } from '../describe';

export const serviceDescription = describeBackend({
  kind: 'service',
  label: "The service's API",
  summary: "the image contract workflow files speak (docs/service-interface.md), sent as it is: the local engines, or any server speaking it",
  defaultBaseUrl: 'http://127.0.0.1:8787/local/image',
  credential: { label: 'Image API token', help: "The token of Settings' image API (ATELIER_TOKEN for the CLI and the server).", required: false },
  names: [],
  browser: {
    direct: true,
    // Servers of the contract have no one flag: the header is what they must send.
    corsFlag: (origin) => `Access-Control-Allow-Origin: ${origin}`,
    allowOrigin: (origin) => `A server of your own must allow this page's origin (${origin}) by CORS.`,
  },
  pool: false,
});
