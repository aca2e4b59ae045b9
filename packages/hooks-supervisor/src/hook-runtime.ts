import { randomBytes } from 'node:crypto';
import {
  lifecycleHookInput,
  type LifecycleFact,
  INHERITED_VARS_TO_CLEAR,
  LIMITS,
  buildHookEnv,
  buildMessageSubmitDocument,
  eventSpec,
  finishMessageSubmit,
  foldLostToolCallBefore,
  formatTimestamp,
  gateDecisionToJson,
  parseToolCallBeforeStdout,
  foldToolCallBefore,
  ToolInputPreview,
  lostMessageSubmit,
  mergeShellEnv,
  notRunOutcome,
  outcomeDetail,
  parseShellEnvOutput,
  sessionIdFromBytes,
  startMessageSubmitChain,
  stepMessageSubmit,
  type GateDecisionRecord,
  type HookContext,
  type HookEventName,
  type HookOutcome,
  type MessageSubmitResult,
  type ShellEnvDrop,
  setEnvVar,
} from '@codewhale/hooks-payloads';
import { hookIdentity, hooksForEvent, matchingHooks, type HookDefinition, type HookSet } from '@codewhale/hooks-config';
import { matchCondition } from '@codewhale/hooks-conditions';
import { BackgroundPool } from './background-pool.js';
import { ObserverDispatcher, type ObserverSubmission } from './observer-dispatcher.js';
import { JsonlLog, shellEnvAuditRecord } from './audit-log.js';
import { HookChain, runHook, type ChainStopRule, type RunSpec } from './run-hook.js';
import { SILENT_LOGGER, type HookLogger } from './logger.js';

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
function stopsLaterGates(o: HookOutcome): boolean {
  if (!o.strict || o.success) return false;
  if (o.exitCode === null || o.exitCode === 2 || o.stdoutTruncated) return true;
  return parseToolCallBeforeStdout(o.stdout).decision === null;
}

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
}

/**
 * An event's context from the caller's facts. Not `{ ...ctx, event, … }`: on Node 20 each
 * property a literal adds after a spread costs ~1–2 µs, and this runs for every event.
 */
function contextOf(ctx: Omit<HookContext, 'event' | 'sessionId'>, event: HookEventName, sessionId: string, workspace: string): HookContext {
  // Spread last (a copy defines its properties; it never calls a setter), then ours win.
  const full = { event, sessionId, workspace, ...ctx } as { -readonly [K in keyof HookContext]: HookContext[K] };
  full.event = event;
  full.sessionId = sessionId;
  full.workspace = workspace;
  return full;
}

/**
 * One session's hook runtime: the per-event entry points the engine and the surfaces call.
 * It owns nothing global: pools are passed in or created per runtime, the session id is
 * minted once and survives {@link rebind}. Hooks fire only while `[hooks].enabled` is true.
 */
export class HookRuntime {
  readonly sessionId: string;
  #hooks: HookSet;
  #digest: string | null;
  readonly #workspace: string;
  readonly #parentEnv: Readonly<Record<string, string | undefined>>;
  readonly #logger: HookLogger;
  readonly #audit: JsonlLog | null;
  readonly #decisions: JsonlLog | null;
  #isRevoked: RevocationCheck | null;
  readonly #pool: BackgroundPool;
  readonly #observers: ObserverDispatcher;
  readonly #ownsPools: boolean;
  readonly #timeoutMsOverride: number | undefined;
  readonly #activity = new Set<HookActivityListener>();

  constructor(options: HookRuntimeOptions) {
    this.sessionId = options.sessionId ?? sessionIdFromBytes(randomBytes(4));
    this.#hooks = options.hooks;
    this.#digest = options.hookSetDigest ?? null;
    this.#workspace = options.workspace;
    this.#parentEnv = options.parentEnv ?? process.env;
    this.#logger = options.logger ?? SILENT_LOGGER;
    this.#audit = options.auditLog ?? null;
    this.#decisions = options.decisionLog ?? null;
    this.#isRevoked = options.isRevoked ?? null;
    this.#ownsPools = !options.backgroundPool && !options.observerDispatcher;
    this.#pool = options.backgroundPool ?? new BackgroundPool({ logger: this.#logger });
    this.#observers = options.observerDispatcher ?? new ObserverDispatcher();
    this.#timeoutMsOverride = options.timeoutMsOverride;
  }

  /** Listen to foreground gate / `message_submit` hooks starting and ending; returns the unsubscribe function. */
  observeActivity(listener: HookActivityListener): () => void {
    this.#activity.add(listener);
    return () => {
      this.#activity.delete(listener);
    };
  }

  async #tracked(event: HookActivity['event'], hook: HookDefinition, index: number, total: number, run: () => Promise<HookOutcome>): Promise<HookOutcome> {
    if (this.#activity.size === 0 || hook.runsInBackground) return run();
    const announce = (a: HookActivity) => {
      for (const l of this.#activity) {
        try {
          l(a);
        } catch {
          // a listener's failure is its own
        }
      }
    };
    const started = performance.now();
    announce({ phase: 'start', event, label: hook.label, index, total, durationMs: null });
    try {
      return await run();
    } finally {
      announce({ phase: 'end', event, label: hook.label, index, total, durationMs: Math.round(performance.now() - started) });
    }
  }

  /** The hook set in force. */
  get hooks(): HookSet {
    return this.#hooks;
  }

  /** Swap the hook set (hot reload, workspace switch, trust change) without a new session id. */
  rebind(hooks: HookSet, hookSetDigest: string | null = this.#digest, isRevoked?: RevocationCheck): void {
    this.#hooks = hooks;
    this.#digest = hookSetDigest;
    if (isRevoked) this.#isRevoked = isRevoked;
  }

  /** True when an enabled hook is configured for `event` (the dispatch fast path). */
  has(event: HookEventName): boolean {
    return this.#hooks.enabled && this.#hooks.hooks.some((h) => h.event === event);
  }

  /** The hooks that would fire for a context (right event, enabled, condition holds). */
  matching(ctx: HookContext): HookDefinition[] {
    return matchingHooks(this.#hooks, ctx);
  }

  /**
   * The environment of the last context: every gate of one tool call shares its context, so
   * the chain builds it once. (The parent environment is read again for each new context; it
   * may be the live `process.env`.)
   */
  #lastEnv: { readonly ctx: HookContext; readonly env: Readonly<Record<string, string>> } | null = null;
  /** The filtered parent environment, kept when the parent is frozen (it cannot change). */
  #frozenInherited: Readonly<Record<string, string>> | null = null;

  #inherited(): Readonly<Record<string, string>> {
    if (this.#frozenInherited) return this.#frozenInherited;
    const inherited: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#parentEnv)) if (v !== undefined && !STALE_HOOK_VARS.has(k)) setEnvVar(inherited, k, v);
    if (Object.isFrozen(this.#parentEnv)) this.#frozenInherited = Object.freeze(inherited);
    return inherited;
  }

  #env(ctx: HookContext): Readonly<Record<string, string>> {
    if (this.#lastEnv?.ctx === ctx) return this.#lastEnv.env;
    const inherited = this.#inherited();
    const vars = buildHookEnv(ctx);
    const env = Object.assign({}, inherited, vars);
    if (Object.hasOwn(inherited, '__proto__')) setEnvVar(env, '__proto__', inherited['__proto__']!);
    Object.freeze(env);
    this.#lastEnv = { ctx, env };
    return env;
  }

  #spec(hook: HookDefinition, ctx: HookContext, stdin: string | null, overrides: Partial<RunSpec> = {}): RunSpec {
    return {
      hook: hookIdentity(hook),
      command: hook.command,
      cwd: this.#hooks.workingDir ?? this.#workspace,
      env: this.#env(ctx),
      stdin,
      timeoutSecs: hook.effectiveTimeoutSecs,
      ...(this.#timeoutMsOverride !== undefined ? { timeoutMs: this.#timeoutMsOverride } : {}),
      ...(this.#revocable(hook) ? { authorize: () => this.#isRevoked?.(hook) ?? null } : {}),
      ...overrides,
    };
  }

  #revocable(hook: HookDefinition): boolean {
    const check = this.#isRevoked;
    return check !== null && (check.appliesTo ? check.appliesTo(hook) : true);
  }

  /** Run one hook in the foreground, or submit it to the background pool. */
  async #run(hook: HookDefinition, ctx: HookContext, stdin: string | null, overrides: Partial<RunSpec> = {}): Promise<HookOutcome> {
    const spec = this.#spec(hook, ctx, stdin, overrides);
    const outcome = hook.runsInBackground ? this.#pool.submit(spec) : await runHook(spec);
    this.#logUnlessVerdict(hook, outcome);
    return outcome;
  }

  #logUnlessVerdict(hook: HookDefinition, outcome: HookOutcome): void {
    // Exit 2 from a gate or transform hook is its verdict (deny / block), not a failure.
    const verdict = outcome.exitCode === 2 && (hook.event === 'tool_call_before' || hook.event === 'message_submit');
    if (!outcome.success && !verdict) this.#logFailure(outcome);
  }

  /**
   * Run hooks in config order: background ones are submitted to the pool, each run of
   * consecutive foreground ones is a {@link HookChain}.
   * `step` gets each hook with the function that runs it and returns its outcome (so it can
   * announce, log and collect); after an outcome that `stopAfter` ends on (a strict failure,
   * see HookChain), the later hooks do not start.
   */
  async #inOrder(
    items: readonly { readonly hook: HookDefinition; readonly spec: RunSpec }[],
    stopAfter: ChainStopRule | null,
    step: (hook: HookDefinition, index: number, run: () => Promise<HookOutcome>) => Promise<HookOutcome>,
  ): Promise<void> {
    const stops = (o: HookOutcome) => stopAfter !== null && o.strict && !o.success && (stopAfter === 'always' || stopAfter(o));
    let i = 0;
    while (i < items.length) {
      const { hook, spec } = items[i]!;
      if (hook.runsInBackground) {
        if (stops(await step(hook, i, () => Promise.resolve(this.#pool.submit(spec))))) return;
        i++;
        continue;
      }
      let end = i;
      while (end < items.length && !items[end]!.hook.runsInBackground) end++;
      const chain = new HookChain(items.slice(i, end).map((x) => x.spec), stopAfter ? { stopAfter } : {});
      for (; i < end; i++) {
        const outcome = await step(items[i]!.hook, i, async () => (await chain.next()) ?? notRunOutcome(hookIdentity(items[i]!.hook), 'hook executor did not run'));
        if (stops(outcome)) return;
      }
    }
  }

  #logFailure(o: HookOutcome): void {
    this.#logger.warn(o.background ? 'background hook was not submitted' : 'hook failed', {
      hook: o.hook.label,
      event: o.hook.event,
      exit_code: o.exitCode,
      duration_ms: o.durationMs,
      detail: outcomeDetail(o),
    });
  }

  #base(event: HookEventName, facts: SessionFacts): HookContext {
    return {
      event,
      sessionId: this.sessionId,
      workspace: facts.workspace ?? this.#workspace,
      model: facts.model ?? null,
      mode: facts.mode ?? null,
      totalTokens: facts.totalTokens ?? null,
      sessionCost: facts.sessionCost ?? null,
    };
  }

  /**
   * `message_submit`: run the transform chain in config order, each hook seeing the previous
   * hook's text through a bounded (≤ 32 KiB) stdin document and `DEEPSEEK_MESSAGE`. Exit 2
   * blocks; a strict failure blocks; a lenient failure warns; background hooks only observe.
   * If the executor itself fails, a matched strict gate still blocks (fail closed).
   */
  async messageSubmit(text: string, facts: SessionFacts = {}): Promise<MessageSubmitResult> {
    if (!this.has('message_submit')) return finishMessageSubmit(startMessageSubmitChain(text));
    const base = this.#base('message_submit', facts);
    const initial = this.matching(Object.assign({}, base, { message: text }));
    try {
      let chain = startMessageSubmitChain(text);
      let index = 0;
      for (const hook of hooksForEvent(this.#hooks, 'message_submit')) {
        // Each hook's condition is evaluated against the text it would be given.
        const ctx: HookContext = Object.assign({}, base, { message: chain.text });
        if (!matchCondition(hook.condition, ctx)) continue;
        const doc = buildMessageSubmitDocument({ text: chain.text, sessionId: this.sessionId, workspace: base.workspace, mode: base.mode, model: base.model, totalTokens: base.totalTokens });
        index++;
        const outcome = await this.#tracked('message_submit', hook, index, Math.max(index, initial.length), () => this.#run(hook, ctx, doc.json));
        chain = stepMessageSubmit(chain, outcome);
        if (chain.blocked) break;
      }
      return finishMessageSubmit(chain);
    } catch {
      return lostMessageSubmit(text, initial.map(hookIdentity));
    }
  }

  /**
   * `tool_call_before`: run the matching hooks in config order (a failing strict hook stops
   * the later ones), fold the outcomes into one decision record, and append it to the
   * decision log when one is configured. If the executor itself fails, every matched strict
   * gate counts as not run and the call is denied (fail closed).
   */
  async toolCallBefore(call: ToolCallFacts): Promise<GateDecisionRecord> {
    const ctx: HookContext = {
      event: 'tool_call_before',
      sessionId: this.sessionId,
      workspace: this.#workspace,
      model: call.model ?? null,
      mode: call.mode ?? null,
      tool: { name: call.name, callId: call.callId ?? null, input: call.input },
    };
    const matched = this.matching(ctx);
    const digest = this.#digest;
    let record: GateDecisionRecord;
    try {
      if (matched.some((h) => h.runsInBackground)) {
        this.#logger.warn(
          'ToolCallBefore hook(s) configured with background=true — background hooks cannot deny tool calls because they exit immediately with no result',
        );
      }
      const outcomes: HookOutcome[] = [];
      // The record's redacted preview of the input is made while the first hook runs (when its
      // process has started), not after the last result, where the tool call waits for it.
      let preview: ToolInputPreview | null = null;
      const prepare = (): void => {
        try {
          preview ??= ToolInputPreview.of(call.input);
        } catch {
          // the fold makes it, and reports what fails there
        }
      };
      const items = matched.map((hook, i) => ({ hook, spec: this.#spec(hook, ctx, null, i === 0 ? { onSpawn: prepare } : {}) }));
      await this.#inOrder(items, stopsLaterGates, async (hook, i, run) => {
        const outcome = await this.#tracked('tool_call_before', hook, i + 1, matched.length, run);
        this.#logUnlessVerdict(hook, outcome);
        outcomes.push(outcome);
        return outcome;
      });
      const skipped = matched.slice(outcomes.length).map(hookIdentity);
      record = foldToolCallBefore({ tool: call.name, callId: call.callId ?? null, originalInput: call.input, outcomes, skipped, hookSetDigest: digest, originalPreview: preview });
      if (record.hooks.some((h) => h.outcome === 'no_verdict')) {
        this.#logger.warn('tool_call_before hook(s) returned no verdict', { tool: call.name, decision: record.decision });
      }
    } catch {
      record = foldLostToolCallBefore({ tool: call.name, callId: call.callId ?? null, originalInput: call.input, matched: matched.map(hookIdentity), hookSetDigest: digest });
    }
    if (this.#decisions && record.hooks.length > 0) {
      // Durable before the call goes on, written off the event loop (see JsonlLog.write).
      await this.#decisions.write({ ts: formatTimestamp(new Date()), session_id: this.sessionId, ...gateDecisionToJson(record) });
    }
    return record;
  }

  /**
   * `shell_env`: run every matching hook in the foreground (background is ignored), parse
   * each successful hook's stdout (read up to 256 KiB) as KEY=VALUE lines, merge them with
   * later hooks overriding earlier ones, and audit the key names. A failing hook contributes
   * nothing and never aborts the shell call. The context is narrow: tool name and arguments.
   */
  async shellEnv(tool: { readonly name: string; readonly input: unknown }): Promise<ShellEnvResult> {
    const ctx: HookContext = { event: 'shell_env', tool: { name: tool.name, input: tool.input } };
    const hooks: { label: string; keys: string[]; dropped: readonly ShellEnvDrop[]; outcome: HookOutcome }[] = [];
    const parts: ReadonlyMap<string, string>[] = [];
    // Every matching hook runs in the foreground, whatever its failure: one chain, no stop.
    const matched = this.matching(ctx);
    const chain = new HookChain(matched.map((hook) => this.#spec(hook, ctx, null, { background: false, stdoutMaxBytes: LIMITS.shellEnvMaxOutputBytes })));
    for (const hook of matched) {
      let outcome: HookOutcome;
      try {
        outcome = (await chain.next()) ?? notRunOutcome(hookIdentity(hook), 'hook executor did not run');
      } catch {
        outcome = notRunOutcome(hookIdentity(hook), 'hook executor did not run');
      }
      if (!outcome.success) {
        this.#logger.warn('shell_env hook failed; contributing no env vars', { hook: hook.label, exit_code: outcome.exitCode, detail: outcomeDetail(outcome) });
        hooks.push({ label: hook.label, keys: [], dropped: [], outcome });
        continue;
      }
      const parsed = parseShellEnvOutput(outcome.stdout, outcome.stdoutTruncated);
      for (const d of parsed.dropped) {
        this.#logger.warn('shell_env entry dropped', { hook: hook.label, key: d.key, reason: d.reason, line: d.line });
      }
      const keys = [...parsed.vars.keys()];
      if (keys.length > 0 && this.#audit) await this.#audit.write(shellEnvAuditRecord(hook.label, tool.name, keys));
      parts.push(parsed.vars);
      // The outcome's stdout carries the values: keep it out of anything returned.
      hooks.push({ label: hook.label, keys, dropped: parsed.dropped, outcome: Object.assign({}, outcome, { stdout: '', stderr: '' }) });
    }
    return { vars: mergeShellEnv(parts), hooks };
  }

  /**
   * Fire an observer event through the dispatcher without waiting: hooks are matched and the
   * environment (and stdin document) bounded before enqueue. Returns the submission result;
   * a full or lost dispatcher drops the event with its event-specific message.
   */
  fire(event: HookEventName, ctx: Omit<HookContext, 'event' | 'sessionId'>, stdin: string | null = null): ObserverSubmission {
    if (!this.has(event)) return { ok: true };
    const full: HookContext = contextOf(ctx, event, this.sessionId, ctx.workspace ?? this.#workspace);
    const matched = this.matching(full);
    if (matched.length === 0) return { ok: true };
    // A full (or closed) queue refuses the event before its environment and jobs are built.
    const refused = this.#observers.refusal(event);
    if (refused) return refused;
    // Observer output is discarded by contract: nothing is captured, two fewer pipes per hook.
    const specs = matched.map((hook) => ({ hook, spec: this.#spec(hook, full, stdin, { captureOutput: false }) }));
    const policy = eventSpec(event).failurePolicy;
    const logFailure = (outcome: HookOutcome) => {
      if (!outcome.success) this.#logFailure(outcome);
    };
    // D14: a revoked hook does not start, even though it was queued before the revoke (its
    // authorize check runs right before its start, and such a hook is never staged).
    return this.#observers.trySubmit(event, async () => {
      await this.#inOrder(specs, policy === 'stop-on-strict-failure' ? 'always' : null, async (_hook, _i, run) => {
        const outcome = await run();
        logFailure(outcome);
        return outcome;
      });
    });
  }

  /**
   * Run an event's hooks now and wait for them (`session_start`, `session_end`): config order,
   * a failing strict hook stops the later ones. Returns every outcome.
   */
  async runNow(event: HookEventName, ctx: Omit<HookContext, 'event' | 'sessionId'>, stdin: string | null = null): Promise<HookOutcome[]> {
    if (!this.has(event)) return [];
    const full: HookContext = contextOf(ctx, event, this.sessionId, ctx.workspace ?? this.#workspace);
    const outcomes: HookOutcome[] = [];
    const policy = eventSpec(event).failurePolicy;
    const items = this.matching(full).map((hook) => ({ hook, spec: this.#spec(hook, full, stdin, { captureOutput: false }) }));
    await this.#inOrder(items, policy === 'stop-on-strict-failure' ? 'always' : null, async (hook, _i, run) => {
      const outcome = await run();
      this.#logUnlessVerdict(hook, outcome);
      outcomes.push(outcome);
      return outcome;
    });
    return outcomes;
  }

  /**
   * Fire a lifecycle event from typed facts: the runtime builds each hook's environment and
   * stdin document. `session_start` and `session_end` should go through {@link runLifecycle}
   * (awaited); every other event is an observer submitted without waiting.
   */
  emit(fact: LifecycleFact): ObserverSubmission {
    if (!this.has(fact.event)) return { ok: true };
    const { ctx, stdin } = lifecycleHookInput(fact, this.sessionId);
    const { event: _event, sessionId: _sid, ...rest } = ctx;
    return this.fire(fact.event, rest, stdin);
  }

  /** Run a lifecycle event's hooks now and wait for them (`session_start`, `session_end`). */
  async runLifecycle(fact: LifecycleFact): Promise<HookOutcome[]> {
    if (!this.has(fact.event)) return [];
    const { ctx, stdin } = lifecycleHookInput(fact, this.sessionId);
    const { event: _event, sessionId: _sid, ...rest } = ctx;
    return this.runNow(fact.event, rest, stdin);
  }

  /** Wait until both pools are idle (tests; graceful shutdown). */
  async idle(): Promise<void> {
    await this.#observers.idle();
    await this.#pool.idle();
  }

  /** Stop the pools this runtime created (shared pools are the owner's to close). */
  async close(): Promise<void> {
    if (!this.#ownsPools) return;
    await this.#observers.close();
    await this.#pool.close();
  }
}

