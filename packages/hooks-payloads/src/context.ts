import type { HookEventName } from './events.js';

/** Status a shell tool reports for a run (`DEEPSEEK_TOOL_STATUS`). */
export type ToolRunStatus = 'completed' | 'failed' | 'timed_out' | 'killed' | 'running';

export const TOOL_RUN_STATUSES: readonly ToolRunStatus[] = ['completed', 'failed', 'timed_out', 'killed', 'running'];

/** A process exit code as a tool reported it: a signed 64-bit integer. */
export type ExitCode = number | bigint;

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/**
 * The exit code as a `bigint` when `value` is a real signed 64-bit integer, else `null`.
 * A string (`"127"`), a fraction, `NaN`, or anything out of range is not an exit code:
 * exit codes are never synthesized from other data.
 */
export function normalizeExitCode(value: unknown): bigint | null {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else return null;
  return n >= I64_MIN && n <= I64_MAX ? n : null;
}

/** What a tool-scoped event knows about the tool call. */
export interface ToolContext {
  /** The resolved tool name the engine executed (`bash`, `Bash`, `read`, `mcp__x__y`…). */
  readonly name: string;
  /** The engine call id; absent when unknown, never synthesized. */
  readonly callId?: string | null;
  /** The tool input (a JSON value); exported as compact JSON in `DEEPSEEK_TOOL_ARGS`. */
  readonly input?: unknown;
  /** The tool's result text. */
  readonly result?: string | null;
  readonly success?: boolean | null;
  /** Only when the tool really reported one. */
  readonly exitCode?: ExitCode | null;
  /** Only for shell tools. */
  readonly status?: ToolRunStatus | null;
  /** The serialized execution receipt (already bounded), for settled local shell runs. */
  readonly executionReceipt?: string | null;
}

/**
 * Everything an event may know at fire time. Which parts a hook actually receives is decided
 * by the event catalogue, not by what is filled in here: `shell_env` never sees a session id
 * even when the context has one.
 */
export interface HookContext {
  readonly event: HookEventName;
  readonly sessionId?: string | null;
  readonly workspace?: string | null;
  readonly model?: string | null;
  /** Any accepted mode spelling; the event decides the spelling hooks see. */
  readonly mode?: string | null;
  /** The approval posture (`ask`, `auto_review`, `full_access`): a peer-protocol hook's `permission_mode`. */
  readonly posture?: string | null;
  readonly totalTokens?: number | null;
  /** USD; exported with six decimals when supplied. */
  readonly sessionCost?: number | null;
  /** `message_submit` text or a sub-agent preview. */
  readonly message?: string | null;
  /** `on_error` message. */
  readonly error?: string | null;
  /** `mode_change`: the mode before the change. */
  readonly previousMode?: string | null;
  readonly tool?: ToolContext | null;
}
