/**
 * @codewhale/hooks-supervisor — runs hooks as real processes that can never hang or outlive
 * their budget, and dispatches each event's hooks with the contract's semantics.
 */
export { runHook, HookChain, HOST_LOST, UNIX_SHELL, type ChainStopRule, type RunSpec } from './run-hook.js';
export { STDIN_FILE_MAX_BYTES } from './stdin-file.js';
export { HOST_COLLECT_AFTER_BYTES, HOST_GROWTH_LIMIT_BYTES, HOST_NODE_OPTIONS, HOST_PROTOCOL } from './process-host-source.js';
export { nativeSpawnerPath, NATIVE_SPAWNER_FILE } from './process-host-native.js';
export { HOST_SCHED_SLICE_NS, hostLaunch, setAgentSlice, agentSliceWanted, type HostLaunch } from './sched-slice.js';
export { ProcessHost, sharedProcessHost, overflowProcessHost, processHostForRun, HOST_CONNECT_TIMEOUT_MS, OVERFLOW_HOST_IDLE_MS, spawnMode, setSpawnMode, hostSpawnSetting, useProcessHost, warmProcessHost, type HostChain, type HostReply, type HostReplacement, type HostRequest, type HostSpawner, type HostStatus, type SpawnMode } from './process-host.js';
export { runShellInHost, ShellContinuation, type ShellRunSpec, type ShellRunResult } from './shell-run.js';
export { scheduleSessionSweep, markSessionActive } from './session-sweep.js';
export { BoundedCapture, completeSequenceEnd } from './bounded-capture.js';
export { spawnErrorKind, spawnFailureMessage } from './spawn-error-kind.js';
export { rawKill, signalProcessGroup, trackProcessGroup, untrackProcessGroup, liveProcessGroups, killAllProcessGroups } from './process-group.js';
export { WorkQueue, type JobStaging } from './work-queue.js';
export { BackgroundPool, BACKGROUND_QUEUE_FULL, BACKGROUND_UNAVAILABLE } from './background-pool.js';
export { ObserverChainJob, ObserverDispatcher, observerQueueFullMessage, observerUnavailableMessage, type ObserverSubmission, type StageableJob } from './observer-dispatcher.js';
export { JsonlLog, shellEnvAuditRecord } from './audit-log.js';
export { HookRuntime, type HookActivity, type HookActivityListener, type HookRuntimeOptions, type RevocationCheck, type ShellEnvResult, type ToolCallFacts, type SessionFacts } from './hook-runtime.js';
export { SILENT_LOGGER, MemoryLogger, type HookLogger } from './logger.js';
export {
  loadHookConfiguration,
  readUserConfig,
  projectRevocationCheck,
  resolvePaths,
  projectHooksPath,
  sha256Hex,
  REVOKED_ERROR,
  type CodewhalePaths,
  type HookConfiguration,
} from './load-hooks.js';
export { scriptDigests } from './script-digests.js';
export {
  readRegularFile,
  fileKind,
  USER_CONFIG_MAX_BYTES,
  PINNED_SCRIPT_MAX_BYTES,
  type RegularFileRead,
  type RegularFileProblem,
} from './read-regular-file.js';
export {
  updateFileLocked,
  lockPathOf,
  FileUpdateError,
  type FileEdit,
  type FileSnapshot,
  type FileUpdateResult,
  type FileUpdateErrorCode,
  type UpdateFileLockedOptions,
} from './update-file-locked.js';
