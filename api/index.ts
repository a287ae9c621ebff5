/**
 * The public surface of `api/`: the service contract (vocabularies, request and response
 * schemas, prompt weighting), the client interfaces, and the HTTP clients that implement them.
 */
export * from './catalog';
export * from './image';
export * from './chat';
export * from './prompt';
export type * from './client-types';

export { ApiError, isApiError, describeEndpoint, extractServiceMessage, redact, type ApiErrorKind } from './errors';
export { DEFAULT_RETRY, backoffDelay, isRetryableStatus, parseRetryAfter, type RetryNotice, type RetryPolicy } from './retry';
export { DEFAULT_TIMEOUTS, type ClientConfig } from './http';
export type { FetchLike, Timeouts } from './exchange';
export { IMAGE_MAX_RESPONSE_BYTES, createImageClient, type ImageClientConfig } from './image-client';
export { CHAT_MAX_RESPONSE_BYTES, createChatClient, type ChatClientConfig, type FullChatClient } from './chat-client';
