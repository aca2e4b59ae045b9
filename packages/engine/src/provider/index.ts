/**
 * The model provider layer: the provider-neutral wire types, the OpenAI-compatible streaming
 * provider, the retry policy, route resolution, and the replay provider.
 */
export {
  ProviderError,
  type ChatMessage,
  type ErrorCategory,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolCall,
  type ModelToolSpec,
  type ModelUsage,
} from './types.js';
export { SseDecoder, decodeSse, type SseEvent } from './sse-decoder.js';
export { ToolCallAssembler, type ToolCallAssemblerOptions } from './tool-call-assembler.js';
export { parseUsage, estimateTokens, ZERO_USAGE } from './usage.js';
export { ChatChunkReader, mapFinishReason, type FinishReason } from './chat-chunk-reader.js';
export { buildChatRequestBody, toWireMessage, REASONING_PLACEHOLDER, type ChatRequestBodyOptions } from './chat-request.js';
export { classifyStatus, httpFailure, errorBodySnippet, streamErrorFailure, type FailureClass, type HttpFailureInput } from './http-failure.js';
export { parseRetryAfter } from './retry-after.js';
export { redactSecrets, REDACTED } from './safe-text.js';
export {
  OpenAICompatibleProvider,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_OPEN_TIMEOUT_MS,
  type OpenAICompatibleProviderOptions,
} from './openai-compatible.js';
export {
  streamWithRetry,
  backoffDelayMs,
  type RetryEvent,
  type RetryStreamEvent,
  type StreamWithRetryOptions,
} from './retry.js';
export { abortableSleep } from './abortable-sleep.js';
export {
  parseReplayScript,
  checkReplayScript,
  ReplayScriptError,
  ERROR_CATEGORIES,
  type ReplayTurn,
  type ReplayToolCall,
  type ReplayFailure,
  type ReplayScriptIssue,
  type ReplayScriptResult,
} from './replay-script.js';
export { ReplayProvider, chunkText, type ReplayProviderOptions } from './replay-provider.js';
export { BUILTIN_ROUTES, DEFAULT_PROVIDER_ID, type BuiltinRoute } from './builtin-routes.js';
export { isLoopbackHost } from './base-url.js';
export {
  resolveRoute,
  createProvider,
  ModelRoute,
  RouteError,
  type RouteErrorCode,
  type RouteFlags,
  type RouteSource,
  type ResolveRouteInput,
} from './route.js';
