/**
 * `@codewhale/engine/testing`: test doubles for code that drives the engine — a scripted
 * offline model (the replay provider) and a real local HTTP server speaking the streaming
 * Chat Completions wire, with faults on demand.
 */
export {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeOpenAIServerOptions,
  type FakeTurn,
  type FakeReplyTurn,
  type FakeFaultTurn,
  type FakeToolCall,
  type FakeReceivedRequest,
} from './fake-openai-server.js';
export { ReplayProvider, type ReplayProviderOptions } from '../provider/replay-provider.js';
export {
  parseReplayScript,
  checkReplayScript,
  ReplayScriptError,
  type ReplayTurn,
  type ReplayToolCall,
  type ReplayFailure,
  type ReplayScriptIssue,
  type ReplayScriptResult,
} from '../provider/replay-script.js';
