/**
 * The model names the local chat engine lists. They name the engine honestly: there is one
 * template-driven engine behind all of them, and none pretends to be a hosted model. The engine
 * answers any other name too (a workflow may name a hosted model on its node), reporting it back
 * in `model`, but lists only these.
 */
import { type ModelList } from '../../../api/chat';

/** Names listed by `GET /v1/models`; the first is the canonical one. */
export const LOCAL_CHAT_MODELS: readonly string[] = Object.freeze([
  'atelier-local-chat',
  'atelier-local-prompt-writer',
  'local',
]);

export const DEFAULT_LOCAL_CHAT_MODEL = LOCAL_CHAT_MODELS[0]!;

/** When the engine was first published; a fixed value so the list is the same on every call. */
const CREATED = Date.UTC(2025, 0, 1) / 1000;

/** The `GET /v1/models` body, in the usual chat-completions shape. */
export function listModels(): ModelList {
  return {
    object: 'list',
    data: LOCAL_CHAT_MODELS.map((id) => ({
      id,
      object: 'model' as const,
      created: CREATED,
      owned_by: 'atelier-local',
      description: id === DEFAULT_LOCAL_CHAT_MODEL
        ? "Atelier's offline chat engine: a template-driven prompt writer standing in for a hosted chat model, not a language model."
        : `Alias of ${DEFAULT_LOCAL_CHAT_MODEL}, the offline template-driven prompt writer.`,
    })),
  };
}
