/**
 * @codewhale/hooks-supervisor — runs hooks as real processes that can never hang or outlive
 * their budget, and dispatches each event's hooks with the contract's semantics.
 */
export { runHook, UNIX_SHELL, type RunSpec } from './run-hook.js';
export { runProcess, type ProcessSpec, type ProcessResult, type Sink } from './spawn/run-process.js';
export { spawnerInUse, type ExitStatus, type SpawnerKind } from './spawn/launch.js';
export { nativeModulePath } from './spawn/native.js';
export { killAllProcessGroups, endAllProcessGroups } from './process-group.js';
export { BackgroundPool } from './background-pool.js';
export { ObserverDispatcher, type ObserverSubmission } from './observer-dispatcher.js';
export { JsonlLog } from './audit-log.js';
export {
  HookRuntime,
  type HookActivity,
  type HookActivityListener,
  type HookRuntimeOptions,
  type RevocationCheck,
  type ShellEnvResult,
  type ToolCallFacts,
  type SessionFacts,
} from './hook-runtime.js';
export { MemoryLogger, type HookLogger } from './logger.js';
export { loadHookConfiguration, readUserConfig, projectRevocationCheck, resolvePaths, projectHooksPath, sha256Hex, type CodewhalePaths, type HookConfiguration } from './load-hooks.js';
export { scriptDigests } from './script-digests.js';
export { readRegularFile, USER_CONFIG_MAX_BYTES, type RegularFileRead, type RegularFileProblem } from './read-regular-file.js';
export { updateFileLocked, FileUpdateError, type FileUpdateResult, type FileUpdateErrorCode, type FileEdit, type FileSnapshot, type UpdateFileLockedOptions } from './update-file-locked.js';
