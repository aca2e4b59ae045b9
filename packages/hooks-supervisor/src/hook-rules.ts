import { buildHookEnv, INHERITED_VARS_TO_CLEAR, parseToolCallBeforeStdout, setEnvVar, type HookContext, type HookEventName, type HookOutcome } from '@codewhale/hooks-payloads';

/** Inherited variables that describe some *other* hook firing; a hook only sees its own event's values. */
const STALE_HOOK_VARS = new Set([
  ...INHERITED_VARS_TO_CLEAR,
  'DEEPSEEK_TOOL_NAME',
  'DEEPSEEK_TOOL_CALL_ID',
  'DEEPSEEK_TOOL_ARGS',
  'DEEPSEEK_TOOL_RESULT',
  'DEEPSEEK_TOOL_SUCCESS',
  'DEEPSEEK_TOOL_EXIT_CODE',
  'DEEPSEEK_TOOL_STATUS',
  'DEEPSEEK_MESSAGE',
  'DEEPSEEK_ERROR',
  'DEEPSEEK_PREVIOUS_MODE',
  'CODEWHALE_TOOL_CALL_ID',
]);

/**
 * A failing strict gate stops the later `tool_call_before` hooks — but only when the call is
 * denied anyway: it gave no verdict (timeout, spawn failure, oversized output, no decision) or
 * it exited 2. A strict hook that exits non-zero yet prints a valid decision has answered; the
 * later gates still run, so a following deny gate is never skipped (the reference skips them,
 * which can let a call through a gate that never ran).
 */
export function stopsLaterGates(o: HookOutcome): boolean {
  if (!o.strict || o.success) return false;
  if (o.exitCode === null || o.exitCode === 2 || o.stdoutTruncated) return true;
  // A peer-protocol hook's stdout counts only on exit 0 (its protocol's rule): no decision here.
  if (o.hook.protocol === 'claude-code') return true;
  return parseToolCallBeforeStdout(o.stdout).decision === null;
}

/**
 * An event's context from the caller's facts. Not `{ ...ctx, event, … }`: on Node 20 each
 * property a literal adds after a spread costs ~1–2 µs, and this runs for every event.
 */
export function contextOf(ctx: Omit<HookContext, 'event' | 'sessionId'>, event: HookEventName, sessionId: string, workspace: string): HookContext {
  // Spread last (a copy defines its properties; it never calls a setter), then ours win.
  const full = { event, sessionId, workspace, ...ctx } as { -readonly [K in keyof HookContext]: HookContext[K] };
  full.event = event;
  full.sessionId = sessionId;
  full.workspace = workspace;
  return full;
}

/**
 * The environment of a hook: the parent's, minus {@link STALE_HOOK_VARS}, plus the event's
 * variables. The last context's is kept (every gate of one tool call shares its context), and
 * a frozen parent is filtered once; any other parent is read again for each new context (it
 * may be the live `process.env`).
 */
export class HookEnvironment {
  readonly #parent: Readonly<Record<string, string | undefined>>;
  #last: { readonly ctx: HookContext; readonly env: Readonly<Record<string, string>> } | null = null;
  #frozenInherited: Readonly<Record<string, string>> | null = null;

  constructor(parent: Readonly<Record<string, string | undefined>>) {
    this.#parent = parent;
  }

  of(ctx: HookContext): Readonly<Record<string, string>> {
    if (this.#last?.ctx === ctx) return this.#last.env;
    const inherited = this.#inherited();
    const env = Object.assign({}, inherited, buildHookEnv(ctx));
    if (Object.hasOwn(inherited, '__proto__')) setEnvVar(env, '__proto__', inherited['__proto__']!);
    Object.freeze(env);
    this.#last = { ctx, env };
    return env;
  }

  #inherited(): Readonly<Record<string, string>> {
    if (this.#frozenInherited) return this.#frozenInherited;
    const inherited: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#parent)) if (v !== undefined && !STALE_HOOK_VARS.has(k)) setEnvVar(inherited, k, v);
    if (Object.isFrozen(this.#parent)) this.#frozenInherited = Object.freeze(inherited);
    return inherited;
  }
}
