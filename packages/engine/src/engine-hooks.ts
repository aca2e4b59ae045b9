import type { GateDecisionRecord } from '@codewhale/hooks-payloads';

/**
 * What the engine needs from a hook dispatcher. Injected, never imported globally: a
 * `HookRuntime` from @codewhale/hooks-supervisor satisfies it, and so can an embedder's own.
 * The engine fires exactly two events itself — `tool_call_before` while planning each call
 * and `shell_env` inside the shell tool; a session host fires the rest from the event stream.
 */
export interface EngineHooks {
  /** Shared with every UI-fired event of the session. */
  readonly sessionId: string;
  /** `tool_call_before`: fold of the matching hooks into one decision record. */
  toolCallBefore(call: {
    readonly name: string;
    readonly callId: string;
    readonly input: unknown;
    readonly mode: string;
    readonly model: string;
    /** The approval posture (`ask`, `auto_review`, `full_access`), for hooks that report it. */
    readonly posture?: string | null;
    /** The turn's signal: aborting kills the running gates (they end with no verdict). */
    readonly signal?: AbortSignal | null;
  }): Promise<GateDecisionRecord>;
  /** `shell_env`: KEY=VALUE pairs for one shell call (values go to the child only); called as `exec_shell`, for shell tools only. */
  shellEnv(tool: { readonly name: string; readonly input: unknown; readonly signal?: AbortSignal | null }): Promise<{ readonly vars: ReadonlyMap<string, string> }>;
  /** Whether any enabled hook is configured for an event (receipts are built only for `tool_call_after` / `on_error`). */
  has(event: 'tool_call_before' | 'shell_env' | 'tool_call_after' | 'on_error'): boolean;
}
