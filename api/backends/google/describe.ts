/** Google's Gemini API as a backend: what it says of itself, for settings, flags and docs (index.ts is the code). */
import { describeBackend } from '../describe';
import { LABEL } from './label';

/** The model an engine runs when the settings name none (models.ts holds what each model takes). */
export const DEFAULT_MODEL = 'gemini-2.5-flash-image';

export const googleDescription = describeBackend({
  kind: 'google',
  label: LABEL,
  summary: "Google's Gemini API image models (gemini-2.5-flash-image, gemini-3-pro-image-preview…): real pictures from an API key, no GPU",
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  credential: {
    label: 'API key',
    help: 'A Gemini API key from Google AI Studio (aistudio.google.com/apikey). Sent in the x-goog-api-key header to this base URL only, never in a URL.',
    required: true,
  },
  names: [
    {
      key: 'model', label: 'Model', perEngine: true, need: 'optional', default: DEFAULT_MODEL, suggestFrom: ['models'],
      hint: `${DEFAULT_MODEL} when empty; any Gemini image model the key can use (an id ending in -image or -image-preview).`,
      note: 'a Gemini image model per engine; a model that cannot do a mode is refused before sending',
    },
  ],
  // generativelanguage.googleapis.com answers cross-origin requests (Google's own SDK runs in the
  // page), so the page could call it; but a key kept in a browser can be read there. There is no
  // flag to start it with: Google's API is not a server people run.
  browser: {
    direct: true,
    corsFlag: () => '',
    caution: 'The key is kept in this browser, where anyone using this browser profile (or an extension) can read it and spend on your project: prefer the route through this server (`ATELIER_IMAGE_BACKEND=google`, `ATELIER_BACKEND_TOKEN`), or use a key whose project has a spending cap.',
    allowOrigin: () => 'Nothing to allow: the Gemini API answers requests from any page.',
  },
  pool: false,
});
