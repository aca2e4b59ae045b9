import type { HookDefinition, HookSet } from '@codewhale/hooks-config';
import type { HookOutcome, ShellEnvDrop } from '@codewhale/hooks-payloads';
import type { JsonlLog } from './audit-log.js';
import type { BackgroundPool } from './background-pool.js';
import type { HookLogger } from './logger.js';
import type { ObserverDispatcher } from './observer-dispatcher.js';

/**
 * D14: the reason a hook must not start (its approval was revoked), or `null`. It is asked
 * right before each start of a hook it `appliesTo` (every hook, when that is absent), so a
 * revocation takes effect at once; hooks it does not apply to skip the check.
 */
export type RevocationCheck = ((hook: HookDefinition) => string | null) & { readonly appliesTo?: (hook: HookDefinition) => boolean };

/** Session-wide facts every UI-fired hook context carries. */
export interface SessionFacts {
  readonly workspace?: string | null;
  readonly model?: string | null;
  readonly mode?: string | null;
  readonly totalTokens?: number | null;
  readonly sessionCost?: number | null;
  /** The approval posture (`ask`, `auto_review`, `full_access`): a peer-protocol hook's `permission_mode`. */
  readonly posture?: string | null;
  /** Aborting kills the running hooks' process groups; they end with no verdict. */
  readonly signal?: AbortSignal | null;
}

export interface HookRuntimeOptions {
  readonly hooks: HookSet;
  /** The session workspace: the hooks' working directory unless `[hooks].working_dir` is set. */
  readonly workspace: string;
  /** Minted (`sess_` + 8 hex) when omitted; survives {@link HookRuntime.rebind}. */
  readonly sessionId?: string;
  /**
   * The environment hook processes inherit, read again for every event and tool call
   * (default: `process.env`, as it is then). A program that never changes its own environment
   * can pass a plain copy (`{ ...process.env }`): reading `process.env` goes through Node's
   * native accessors key by key, ~0.1–0.2 ms per event for 40 variables. A frozen object is
   * taken to hold fixed values (`Object.freeze({ ...process.env })`): the runtime filters it
   * once, not again for every event.
   */
  readonly parentEnv?: Readonly<Record<string, string | undefined>>;
  readonly logger?: HookLogger;
  /** `$CODEWHALE_HOME/audit.log` for `shell_env` key names; `null` disables it. */
  readonly auditLog?: JsonlLog | null;
  /** Opt-in JSONL file of `tool_call_before` decision records (D28). */
  readonly decisionLog?: JsonlLog | null;
  /** D14: a reason string when this hook must not start now (its project approval was revoked). */
  readonly isRevoked?: RevocationCheck;
  /** Digest of the hook set, recorded in decision records. */
  readonly hookSetDigest?: string | null;
  /** Shared pools (kept across rebinds); created when omitted. */
  readonly backgroundPool?: BackgroundPool;
  readonly observerDispatcher?: ObserverDispatcher;
  /** Test seam: override every hook's timeout in milliseconds. */
  readonly timeoutMsOverride?: number;
}

/**
 * A foreground gate or `message_submit` hook starting or ending, so a surface can say which
 * hook runs (`name (i/n)`). Labels are the configured ones: strip control characters before display.
 */
export interface HookActivity {
  readonly phase: 'start' | 'end';
  readonly event: 'tool_call_before' | 'message_submit';
  readonly label: string;
  /** 1-based position among the hooks that matched this firing. */
  readonly index: number;
  readonly total: number;
  /** For `end`: how long the hook took. */
  readonly durationMs: number | null;
}

export type HookActivityListener = (activity: HookActivity) => void;

/** What `shell_env` produced for one shell call. Values are for the child process only: never log them. */
export interface ShellEnvResult {
  readonly vars: ReadonlyMap<string, string>;
  readonly hooks: readonly {
    readonly label: string;
    readonly keys: readonly string[];
    readonly dropped: readonly ShellEnvDrop[];
    readonly outcome: HookOutcome;
  }[];
}

/** Tool-call facts for `tool_call_before`. */
export interface ToolCallFacts {
  readonly name: string;
  readonly callId?: string | null;
  readonly input: unknown;
  readonly mode?: string | null;
  readonly model?: string | null;
  /** The approval posture (`ask`, `auto_review`, `full_access`): a peer-protocol hook's `permission_mode`. */
  readonly posture?: string | null;
  /** Aborting kills the running gates' process groups; they end with no verdict. */
  readonly signal?: AbortSignal | null;
}
