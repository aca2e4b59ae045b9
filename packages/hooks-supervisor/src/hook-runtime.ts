import { randomBytes } from 'node:crypto';
import {
  buildMessageSubmitDocument,
  eventSpec,
  finishMessageSubmit,
  foldLostToolCallBefore,
  foldToolCallBefore,
  formatTimestamp,
  gateDecisionToJson,
  lifecycleHookInput,
  LIMITS,
  lostMessageSubmit,
  mergeShellEnv,
} from '@codewhale/hooks-payloads';
import { buildPeerDocument, isJsonObject, ourToPeerEvent, peerDocumentForRecord, peerObserverRequests, setEnvVar } from '@codewhale/hooks-payloads';
import { notRunOutcome, outcomeDetail, parseShellEnvOutput, sessionIdFromBytes, startMessageSubmitChain, stepMessageSubmit, ToolInputPreview } from '@codewhale/hooks-payloads';
import type { GateDecisionRecord, HookContext, HookEventName, HookOutcome, LifecycleFact, MessageSubmitResult, ShellEnvDrop } from '@codewhale/hooks-payloads';
import { hookIdentity, hooksForEvent, matchingHooks, type HookDefinition, type HookSet } from '@codewhale/hooks-config';
import { matchCondition } from '@codewhale/hooks-conditions';
import { BackgroundPool } from './background-pool.js';
import { ObserverDispatcher, type ObserverSubmission } from './observer-dispatcher.js';
import { type JsonlLog, shellEnvAuditRecord } from './audit-log.js';
import { runHook, type ChainStopRule, type RunSpec } from './run-hook.js';
import { SILENT_LOGGER, type HookLogger } from './logger.js';
import { contextOf, HookEnvironment, stopsLaterGates } from './hook-rules.js';
import type { HookActivity, HookActivityListener, HookRuntimeOptions, RevocationCheck, SessionFacts, ShellEnvResult, ToolCallFacts } from './hook-runtime-types.js';

export type { HookActivity, HookActivityListener, HookRuntimeOptions, RevocationCheck, SessionFacts, ShellEnvResult, ToolCallFacts } from './hook-runtime-types.js';

/** A peer-protocol hook's stdin document and environment for one context. */
interface PeerInput {
  readonly ctx: HookContext;
  readonly native: string | null;
  readonly stdin: string | null;
  /** The document as decision records show it ({@link peerDocumentForRecord}). */
  readonly shown: string | null;
  readonly env: Readonly<Record<string, string>>;
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
  readonly #env: HookEnvironment;
  readonly #logger: HookLogger;
  readonly #audit: JsonlLog | null;
  readonly #decisions: JsonlLog | null;
  #isRevoked: RevocationCheck | null;
  readonly #pool: BackgroundPool;
  readonly #observers: ObserverDispatcher;
  readonly #ownsPools: boolean;
  readonly #timeoutMsOverride: number | undefined;
  readonly #activity = new Set<HookActivityListener>();
  /** The last peer-protocol input built (every peer gate of one tool call shares its context). */
  #lastPeer: PeerInput | null = null;

  constructor(options: HookRuntimeOptions) {
    this.sessionId = options.sessionId ?? sessionIdFromBytes(randomBytes(4));
    this.#hooks = options.hooks;
    this.#digest = options.hookSetDigest ?? null;
    this.#workspace = options.workspace;
    this.#env = new HookEnvironment(options.parentEnv ?? process.env);
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

  #spec(hook: HookDefinition, ctx: HookContext, stdin: string | null, overrides: Partial<RunSpec> = {}): RunSpec {
    const peer = hook.protocol === 'claude-code' ? this.#peerInput(ctx, stdin) : null;
    return {
      hook: hookIdentity(hook),
      command: hook.command,
      cwd: this.#hooks.workingDir ?? this.#workspace,
      env: peer ? peer.env : this.#env.of(ctx),
      stdin: peer ? peer.stdin : stdin,
      timeoutSecs: hook.effectiveTimeoutSecs,
      ...(this.#timeoutMsOverride !== undefined ? { timeoutMs: this.#timeoutMsOverride } : {}),
      ...(this.#revocable(hook) ? { authorize: () => this.#isRevoked?.(hook) ?? null } : {}),
      ...overrides,
    };
  }

  /**
   * What a `claude-code` hook is given instead of the contract's stdin document: the peer's
   * document for this context (built from the context and, for the facts only it carries, the
   * event's own document), and the hook environment plus `CLAUDE_PROJECT_DIR` (the workspace).
   * The `DEEPSEEK_*` variables stay, so a hook may read either.
   */
  #peerInput(ctx: HookContext, nativeStdin: string | null): PeerInput {
    const last = this.#lastPeer;
    if (last !== null && last.ctx === ctx && last.native === nativeStdin) return last;
    const workspace = ctx.workspace ?? this.#workspace;
    let native: Record<string, unknown> | null = null;
    if (nativeStdin !== null && (ctx.event === 'waiting_for_user' || ctx.event === 'subagent_complete')) {
      try {
        const v = JSON.parse(nativeStdin) as unknown;
        if (isJsonObject(v)) native = v;
      } catch {
        // our own document; unreadable means no extra facts
      }
    }
    const doc = buildPeerDocument({
      event: ctx.event,
      sessionId: ctx.sessionId ?? this.sessionId,
      workspace,
      mode: ctx.mode ?? null,
      posture: ctx.posture ?? null,
      model: ctx.model ?? null,
      tool: ctx.tool ?? null,
      prompt: ctx.message ?? null,
      native,
    });
    const env: Record<string, string> = Object.assign({}, this.#env.of(ctx));
    setEnvVar(env, 'CLAUDE_PROJECT_DIR', workspace);
    const entry: PeerInput = { ctx, native: nativeStdin, stdin: doc?.json ?? null, shown: doc ? peerDocumentForRecord(doc) : null, env: Object.freeze(env) };
    this.#lastPeer = entry;
    return entry;
  }

  /** Log what a peer-protocol observer asked for that Codewhale does not do (a Stop hook asking to continue…). */
  #reportPeerRequests(hook: HookDefinition, outcome: HookOutcome): void {
    if (hook.protocol !== 'claude-code' || outcome.background) return;
    const event = ourToPeerEvent(hook.event);
    if (event === null) return;
    for (const request of peerObserverRequests(event, outcome)) this.#logger.warn('unsupported request from a claude-code hook', { hook: hook.label, event: hook.event, detail: request });
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
   * Run hooks in config order, each after the one before it ended (background ones are only
   * submitted to the pool). `step` gets each hook with the function that runs it and returns
   * its outcome (so it can announce, log and collect). `stopAfter` is consulted only for a
   * strict hook that failed: when it says so (or is `'always'`), the later hooks never start.
   */
  async #inOrder(
    items: readonly { readonly hook: HookDefinition; readonly spec: RunSpec }[],
    stopAfter: ChainStopRule | null,
    step: (hook: HookDefinition, index: number, run: () => Promise<HookOutcome>) => Promise<HookOutcome>,
  ): Promise<void> {
    for (const [i, { hook, spec }] of items.entries()) {
      const outcome = await step(hook, i, () => (hook.runsInBackground ? Promise.resolve(this.#pool.submit(spec)) : runHook(spec)));
      if (stopAfter !== null && outcome.strict && !outcome.success && (stopAfter === 'always' || stopAfter(outcome))) return;
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
      posture: facts.posture ?? null,
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
        const outcome = await this.#tracked('message_submit', hook, index, Math.max(index, initial.length), () => this.#run(hook, ctx, doc.json, facts.signal ? { signal: facts.signal } : {}));
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
      posture: call.posture ?? null,
      tool: { name: call.name, callId: call.callId ?? null, input: call.input },
    };
    const matched = this.matching(ctx);
    const digest = this.#digest;
    let record: GateDecisionRecord;
    try {
      if (matched.some((h) => h.runsInBackground)) {
        this.#logger.warn('tool_call_before hook(s) configured with background = true: a background hook cannot deny or change a tool call (it is not waited for)');
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
      const signal = call.signal ? { signal: call.signal } : {};
      const items = matched.map((hook, i) => ({ hook, spec: this.#spec(hook, ctx, null, i === 0 ? { onSpawn: prepare, ...signal } : signal) }));
      await this.#inOrder(items, stopsLaterGates, async (hook, i, run) => {
        const outcome = await this.#tracked('tool_call_before', hook, i + 1, matched.length, run);
        this.#logUnlessVerdict(hook, outcome);
        outcomes.push(outcome);
        return outcome;
      });
      const skipped = matched.slice(outcomes.length).map(hookIdentity);
      const peer = matched.some((h) => h.protocol === 'claude-code') ? this.#peerInput(ctx, null).shown : null;
      record = foldToolCallBefore({
        tool: call.name,
        callId: call.callId ?? null,
        originalInput: call.input,
        outcomes,
        skipped,
        hookSetDigest: digest,
        originalPreview: preview,
        workspace: this.#workspace,
        peerDocument: peer,
      });
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
  async shellEnv(tool: { readonly name: string; readonly input: unknown; readonly signal?: AbortSignal | null }): Promise<ShellEnvResult> {
    const ctx: HookContext = { event: 'shell_env', tool: { name: tool.name, input: tool.input } };
    const hooks: { label: string; keys: string[]; dropped: readonly ShellEnvDrop[]; outcome: HookOutcome }[] = [];
    const parts: ReadonlyMap<string, string>[] = [];
    // Every matching hook runs in the foreground, whatever its failure: one chain, no stop.
    const matched = this.matching(ctx);
    for (const hook of matched) {
      let outcome: HookOutcome;
      try {
        outcome = await runHook(this.#spec(hook, ctx, null, { background: false, stdoutMaxBytes: LIMITS.shellEnvMaxOutputBytes, ...(tool.signal ? { signal: tool.signal } : {}) }));
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
    // A peer-protocol hook's is read only to report what it asked for that is not done here.
    const specs = matched.map((hook) => ({ hook, spec: this.#spec(hook, full, stdin, { captureOutput: hook.protocol === 'claude-code' }) }));
    const policy = eventSpec(event).failurePolicy;
    const logFailure = (outcome: HookOutcome) => {
      if (!outcome.success) this.#logFailure(outcome);
    };
    // D14: a revoked hook does not start, even though it was queued before the revoke (its
    // authorize check runs right before its start, and such a hook is never staged).
    return this.#observers.trySubmit(event, async () => {
      await this.#inOrder(specs, policy === 'stop-on-strict-failure' ? 'always' : null, async (hook, _i, run) => {
        const outcome = await run();
        logFailure(outcome);
        this.#reportPeerRequests(hook, outcome);
        return outcome;
      });
    });
  }

  /**
   * Run an event's hooks now and wait for them (`session_start`, `session_end`): config order,
   * a failing strict hook stops the later ones. Returns every outcome.
   */
  async runNow(event: HookEventName, ctx: Omit<HookContext, 'event' | 'sessionId'>, stdin: string | null = null, signal?: AbortSignal | null): Promise<HookOutcome[]> {
    if (!this.has(event)) return [];
    const full: HookContext = contextOf(ctx, event, this.sessionId, ctx.workspace ?? this.#workspace);
    const outcomes: HookOutcome[] = [];
    const policy = eventSpec(event).failurePolicy;
    const items = this.matching(full).map((hook) => {
      const capture = hook.protocol === 'claude-code';
      return { hook, spec: this.#spec(hook, full, stdin, signal ? { captureOutput: capture, signal } : { captureOutput: capture }) };
    });
    await this.#inOrder(items, policy === 'stop-on-strict-failure' ? 'always' : null, async (hook, _i, run) => {
      const outcome = await run();
      this.#logUnlessVerdict(hook, outcome);
      this.#reportPeerRequests(hook, outcome);
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
  async runLifecycle(fact: LifecycleFact, signal?: AbortSignal | null): Promise<HookOutcome[]> {
    if (!this.has(fact.event)) return [];
    const { ctx, stdin } = lifecycleHookInput(fact, this.sessionId);
    const { event: _event, sessionId: _sid, ...rest } = ctx;
    return this.runNow(fact.event, rest, stdin, signal);
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
