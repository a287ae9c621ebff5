/**
 * The base URL each backend kind usually listens on, for the settings' placeholders: from each
 * backend's description (registry.ts), apart from config.ts so the editor's first load takes it
 * without the zod schemas.
 */
export { DEFAULT_BASE_URL } from './registry';
