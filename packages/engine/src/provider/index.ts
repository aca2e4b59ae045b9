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
export {
  OpenAICompatibleProvider,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_OPEN_TIMEOUT_MS,
  type OpenAICompatibleProviderOptions,
} from './openai-compatible.js';
export { classifyStatus, type FailureClass } from './http-failure.js';
export type { FinishReason } from './chat-chunk-reader.js';
export {
  streamWithRetry,
  backoffDelayMs,
  type RetryEvent,
  type RetryStreamEvent,
  type StreamWithRetryOptions,
} from './retry.js';
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
export { BUILTIN_ROUTES, DEFAULT_PROVIDER_ID, type BuiltinRoute } from './builtin-routes.js';
export { ReplayProvider, type ReplayProviderOptions } from './replay-provider.js';
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
export { parseUsage, estimateTokens, ZERO_USAGE } from './usage.js';
export { SseDecoder, decodeSse, type SseEvent } from './sse-decoder.js';
export { ToolCallAssembler, type ToolCallAssemblerOptions } from './tool-call-assembler.js';
