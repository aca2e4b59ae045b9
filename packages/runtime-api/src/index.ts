/**
 * @codewhale/runtime-api — the Runtime API server behind `codewhale serve`: threads and turns
 * over HTTP, server-sent events with resume, durable approvals, `GET /v1/hooks`, all stored in
 * SQLite.
 */
export { startServer, ServeError, DEFAULT_RETENTION, type ServeOptions, type RunningServer } from './start-server.js';
export { createApp, type AppDeps } from './create-app.js';
export { RuntimeStore, StoreError, type RuntimeStoreOptions, type SyncLevel, type ApprovalAnswerer, type CommitListener, type Page } from './store/runtime-store.js';
export { SqliteUnavailableError } from './store/sqlite.js';
export { SCHEMA_VERSION } from './store/migrations.js';
export type {
  ThreadRecord,
  TurnRecord,
  ItemRecord,
  ApprovalRecord,
  StoredEvent,
  TurnStatus,
  ItemKind,
  ItemStatus,
  ApprovalStatus,
  ApprovalScope,
  AlwaysChoice,
  WritePreviewRecord,
  UserInputStatus,
  UserInputQuestionRecord,
  UserInputRecord,
} from './store/records.js';
export { EventHub, eventEnvelope, type EventSubscriber } from './events/event-hub.js';
export { ApprovalBroker, type ApprovalRequestInput, type RememberAlways, type UserInputResult, type AnswerResult } from './approval-broker.js';
export { SessionTurnRunner, type TurnRunner, type ThreadSession, type OpenThreadSession, type SteerOutcome } from './turn-runner.js';
export { ApiError, STATUS_OF, CODE_OF_CATEGORY, type ApiErrorCode, type ApiIssue } from './http/api-error.js';
export { openApiDocument } from './http/openapi.js';
export { resolveToken, tokenFilePath, type TokenSource, type ResolvedToken } from './auth/resolve-token.js';
export type { BrowserPolicy } from './http/browser-guard.js';
export type { PeerVerdict } from './auth/peer-process.js';
export type { SseOptions } from './events/sse-stream.js';
export { tokensMatch, presentedToken, isLoopbackHost } from './auth/check-token.js';
export { hooksView, firesOn } from './hooks-view.js';
export { VERSION } from './version.js';
export { ServerLock, ServerLockedError, readServerInfo, SERVER_INFO_FILE, type ServerInfo } from './lifecycle/server-lock.js';
export { LoginCodes } from './auth/login-codes.js';
export { loadWebAssets, WEB_SECURITY_HEADERS, type WebAsset } from './web/web-assets.js';
