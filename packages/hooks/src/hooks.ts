import { resolve } from 'node:path';
import { describeProjectStatus, hookSetDigest, readProjectRecord, type FileIssue } from '@codewhale/hooks-config';
import {
  foldToolCallBefore,
  INITIAL_SESSION_STATE,
  observeSessionState,
  sanitizeLine,
  type GateDecisionRecord,
  type HookEventName,
  type HookOutcome,
  type LifecycleFact,
  type LifecycleSessionFacts,
  type MessageSubmitResult,
  type SessionObservation,
  type SessionStateMachine,
} from '@codewhale/hooks-payloads';
import {
  HookRuntime,
  JsonlLog,
  loadHookConfiguration,
  projectRevocationCheck,
  resolvePaths,
  sha256Hex,
  type BackgroundPool,
  type CodewhalePaths,
  type HookConfiguration,
  type HookLogger,
  type ObserverDispatcher,
} from '@codewhale/hooks-supervisor';
import { SecretMask } from './secret-mask.js';
import { appendHookContext, gateOf, NO_ENV, validateInput, type ToolGate, type Validate } from './tool-gate.js';
import { shellEnvCall, toolCallAfterFacts, type ToolCallResult } from './tool-rules.js';

/** Something the embedder should show: a rejected hook, project hooks not loaded, a hook that failed. Safe to print (bounded, no values). */
export interface HooksNotice {
  readonly level: 'warning' | 'error';
  readonly message: string;
}

/** The user's config.toml cannot be used (a TOML syntax error, not a regular file…): nothing was loaded. */
export class HooksConfigError extends Error {
  readonly issues: readonly FileIssue[];
  constructor(issues: readonly FileIssue[], fallback: string) {
    super(issues[0]?.summary ?? fallback);
    this.name = 'HooksConfigError';
    this.issues = issues;
  }
}

export interface OpenHooksOptions {
  /** The project directory: hooks run there, and its `.codewhale/hooks.toml` loads once trusted and approved. */
  readonly workspace: string;
  /** The Codewhale home (config.toml, approvals, audit.log). Default `$CODEWHALE_HOME`, else `~/.codewhale`. */
  readonly home?: string;
  /** The user config file. Default `$CODEWHALE_CONFIG_PATH`, else `<home>/config.toml`. */
  readonly configPath?: string | null;
  /** Problems at load (rejected entries, project hooks not loaded) and at run time (a hook failed, an event dropped). */
  readonly onNotice?: (notice: HooksNotice) => void;
  /** The environment hooks inherit and the defaults above come from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Facts every event carries (`DEEPSEEK_MODEL`, `DEEPSEEK_MODE`); change them later with {@link Hooks.update}. */
  readonly model?: string | null;
  readonly mode?: string | null;
  /** Keep a session id (`sess_` + 8 hex) across restarts; minted when omitted. */
  readonly sessionId?: string;
  /** Write `shell_env` key names to `<home>/audit.log` (default `true`). */
  readonly auditLog?: boolean;
  /** A JSONL file (relative to the workspace) for every `tool_call_before` decision record. Default `$CODEWHALE_TOOL_AUDIT_LOG`, else none. */
  readonly decisionLog?: string | null;
}

/** Advanced options for the surfaces that share one process between many sessions. */
export interface HostedHooksOptions extends OpenHooksOptions {
  /** A configuration the caller already loaded (so the config file is read once). */
  readonly configuration?: HookConfiguration;
  /** Pools shared by many sessions of one process. */
  readonly pools?: { readonly backgroundPool: BackgroundPool; readonly observerDispatcher: ObserverDispatcher };
}

/** One tool call, before it runs. */
export interface BeforeToolCall {
  /** The tool's name as the model called it (`bash`, `read_file`, `mcp__github__create_issue`…). */
  readonly name: string;
  readonly callId?: string | null;
  /** The input the tool would run with (a JSON object). */
  readonly input: unknown;
  /** The mode hooks see in `DEEPSEEK_MODE` (default: the one given to `openHooks` or `update`). */
  readonly mode?: string | null;
  /**
   * How calls are approved in the caller's agent (`ask`, `auto_review`, `full_access`): a
   * `claude-code` hook sees it as `permission_mode`. Unknown or omitted reads as the peer's
   * `default`.
   */
  readonly posture?: string | null;
  /** Aborting kills the running hooks' process groups; the call is then denied (`aborted: true`). */
  readonly signal?: AbortSignal | null;
  /** Checks a hook's rewrite (`updatedInput`) as the tool would: a function or a Standard Schema (a zod schema). A refused rewrite denies. */
  readonly validate?: Validate | null;
  /**
   * Ask a person when a hook says `ask` (`true`: run it). With it, the gate comes back `allow`
   * or `deny`, never `ask`. Without it, an `ask` comes back as is, with no `shell_env` values:
   * once the person agrees, get them with {@link Hooks.shellEnv}.
   */
  readonly approve?: ((request: ApprovalRequest) => boolean | PromiseLike<boolean>) | null;
  /**
   * Run `shell_env` now for a shell tool's call that may run (default `true`): its values land
   * in `gate.env`. `false`: run it later, right before the command, with {@link Hooks.shellEnv}.
   */
  readonly shellEnv?: boolean;
}

/** What an `approve` callback is asked. */
export interface ApprovalRequest {
  readonly name: string;
  readonly callId: string | null;
  /** The input that would run (after any accepted rewrite). */
  readonly input: unknown;
  /** The asking hook's reason, when it gave one (bounded, redacted). */
  readonly reason: string | null;
  /** The asking hook's label. */
  readonly hook: string | null;
  readonly signal: AbortSignal | null;
}

/** Options every lifecycle call takes. */
export interface CallOptions {
  readonly signal?: AbortSignal | null;
}

/** The `turn_end` facts a loop knows. */
export interface TurnEnd {
  readonly turnId: string;
  /** `completed`, `failed`, `interrupted`… */
  readonly status: string;
  readonly error?: string | null;
  readonly durationMs: number;
  /** When the turn started (default: now minus `durationMs`). */
  readonly createdAt?: Date;
  readonly provider?: string | null;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number } | null;
  readonly toolCount?: number;
  readonly queuedMessageCount?: number;
}

const CANCELLED_REASON = 'the tool call was cancelled while its hooks ran';

function noticeLogger(notify: (n: HooksNotice) => void): HookLogger {
  return {
    warn(message, fields = {}) {
      const detail = Object.entries(fields)
        .map(([k, v]) => `${k}=${v === null ? 'null' : String(v)}`)
        .join(' ');
      notify({ level: 'warning', message: sanitizeLine(detail ? `${message} (${detail})` : message, 400).text });
    },
  };
}

/** Lines about what a configuration leaves out: rejected entries, project hooks that do not load. */
export function configurationNotes(config: HookConfiguration, scope: 'session' | 'run' = 'session'): string[] {
  const notes: string[] = [];
  const p = config.loaded.project;
  if (p && p.state !== 'none' && !p.loadable) {
    const status = describeProjectStatus({ state: p.state, trusted: p.trusted, digest: p.digest, loaded: p.loadable, changedScripts: p.changedScripts.length });
    notes.push(`project hooks are not part of this ${scope}: ${status}`);
  }
  for (const problem of config.loaded.set.problems) notes.push(problem.summary);
  return notes;
}

/**
 * The approval a configuration runs project hooks under (the approved digest and the pinned
 * scripts), or `null` when it runs none.
 */
function projectApprovalKey(config: HookConfiguration): string | null {
  const p = config.loaded.project;
  if (!p?.loadable || config.workspace === null) return null;
  const pins = [...readProjectRecord(config.loaded.userConfig.document, config.workspace).approvedScripts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([p.approvedDigest, pins]);
}

/** The configuration with its project hooks left out (global hooks only), as a session that did not start with their approval runs it. */
function withoutProjectHooks(config: HookConfiguration): HookConfiguration {
  const set = { ...config.loaded.set, hooks: config.loaded.set.hooks.filter((h) => h.source !== 'project'), problems: config.loaded.set.problems.filter((p) => p.source !== 'project') };
  const project = config.loaded.project ? { ...config.loaded.project, loadable: false } : null;
  return { ...config, loaded: { ...config.loaded, set, project }, digest: hookSetDigest(set, sha256Hex) };
}

/** What a reload says when project hooks were approved during the session. */
const APPROVED_NEXT_SESSION_NOTE =
  'project hooks approved during this session load when the next session starts (an approval enables those bytes from the next session); this one keeps the hooks it started with';

/** Load the user's hooks (and the workspace's, when trusted and approved); a `HooksConfigError` when the config cannot be used. */
export function loadConfiguration(paths: CodewhalePaths, workspace: string): HookConfiguration {
  let r: ReturnType<typeof loadHookConfiguration>;
  try {
    r = loadHookConfiguration({ paths, workspace });
  } catch (e) {
    const message = `cannot read ${paths.configPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    throw new HooksConfigError([{ code: 'unreadable', file: paths.configPath, line: null, column: null, message, summary: message }], message);
  }
  if (!r.ok) throw new HooksConfigError(r.issues, `cannot read ${paths.configPath}`);
  return r.value;
}

/**
 * The user's own Codewhale hooks for one agent session, with every documented rule applied:
 * the shared loader (global hooks plus trusted and approved project hooks, per-entry
 * rejection), the `shell_env` audit log, immediate revocation, problems reported, decision
 * records, and the rules of each call (see the methods). Get one with {@link openHooks}.
 */
export class Hooks {
  /** The dispatcher underneath (for `openSession({ hooks })` of `@codewhale/engine`). */
  readonly runtime: HookRuntime;
  readonly paths: CodewhalePaths;
  readonly workspace: string;
  /** The lifecycle events of the session (UI-side ones), under the same rules. */
  readonly lifecycle: Lifecycle;
  #configuration: HookConfiguration;
  /** The project approval the session started with: a reload never runs project hooks under another one. */
  readonly #approvalAtStart: string | null;
  readonly #notify: (n: HooksNotice) => void;
  readonly #mask = new SecretMask();
  #facts: { model: string | null; mode: string | null; totalTokens: number | null };

  private constructor(o: HostedHooksOptions, paths: CodewhalePaths, configuration: HookConfiguration) {
    const env = o.env ?? process.env;
    const onNotice = o.onNotice;
    this.#notify = (n) => {
      try {
        onNotice?.(n);
      } catch {
        // the embedder's callback failing is its own problem
      }
    };
    this.paths = paths;
    this.workspace = configuration.workspace ?? resolve(o.workspace);
    this.#configuration = configuration;
    this.#approvalAtStart = projectApprovalKey(configuration);
    this.#facts = { model: o.model ?? null, mode: o.mode ?? null, totalTokens: null };
    const decisionLog = o.decisionLog === undefined ? env.CODEWHALE_TOOL_AUDIT_LOG || null : o.decisionLog;
    this.runtime = new HookRuntime({
      hooks: configuration.loaded.set,
      workspace: this.workspace,
      ...(o.sessionId ? { sessionId: o.sessionId } : {}),
      parentEnv: env,
      logger: noticeLogger(this.#notify),
      auditLog: o.auditLog === false ? null : new JsonlLog(paths.auditLog),
      decisionLog: decisionLog ? new JsonlLog(resolve(this.workspace, decisionLog)) : null,
      isRevoked: projectRevocationCheck(configuration),
      hookSetDigest: configuration.digest,
      ...(o.pools ? { backgroundPool: o.pools.backgroundPool, observerDispatcher: o.pools.observerDispatcher } : {}),
    });
    this.lifecycle = new Lifecycle(this, this.runtime, this.#notify);
    for (const note of configurationNotes(configuration)) this.#notify({ level: 'warning', message: sanitizeLine(note, 400).text });
  }

  /** Load and build synchronously (what {@link openHooks} does). */
  static open(o: HostedHooksOptions): Hooks {
    const env = o.env ?? process.env;
    const paths = resolvePaths(o.home ? { ...env, CODEWHALE_HOME: o.home } : env, o.configPath ?? null);
    const configuration = o.configuration ?? loadConfiguration(paths, o.workspace);
    return new Hooks(o, paths, configuration);
  }

  /** `sess_` + 8 hex: every event of the session carries it. */
  get sessionId(): string {
    return this.runtime.sessionId;
  }

  /** The configuration in force: the hook set, its problems, the project's approval state, the digest. */
  get configuration(): HookConfiguration {
    return this.#configuration;
  }

  /** Whether an enabled hook is configured for `event` (nothing runs otherwise). */
  has(event: HookEventName): boolean {
    return this.runtime.has(event);
  }

  /** Change the facts events carry from now on (the model, the mode, the session's token total). */
  update(facts: { readonly model?: string | null; readonly mode?: string | null; readonly totalTokens?: number | null }): void {
    this.#facts = {
      model: facts.model !== undefined ? facts.model : this.#facts.model,
      mode: facts.mode !== undefined ? facts.mode : this.#facts.mode,
      totalTokens: facts.totalTokens !== undefined ? facts.totalTokens : this.#facts.totalTokens,
    };
  }

  /** @internal the session facts of a lifecycle event. */
  facts(mode?: string | null): LifecycleSessionFacts {
    return { workspace: this.workspace, model: this.#facts.model, mode: mode ?? this.#facts.mode, totalTokens: this.#facts.totalTokens };
  }

  /**
   * `tool_call_before` for one call, then `shell_env` for a shell tool's call that may run.
   * Deny, ask (with the asking hook's reason), a rewrite checked again by `validate` (a
   * refused one denies), `additionalContext` for `Hooks.decorate`, `shell_env` values for the
   * command only. An aborted signal kills the running hooks and denies the call. Never throws.
   */
  async beforeToolCall(call: BeforeToolCall): Promise<ToolGate> {
    const signal = call.signal ?? null;
    const callId = call.callId ?? null;
    const mode = call.mode ?? this.#facts.mode;
    const none = (input: unknown) => foldToolCallBefore({ tool: call.name, callId, originalInput: input, outcomes: [], hookSetDigest: this.#configuration.digest });
    if (signal?.aborted) return cancelledGate(call.input, none(call.input));
    // The tool prepares its input first (defaults filled in); hooks never see an input it refuses.
    let input = call.input;
    if (call.validate) {
      const prepared = await validateInput(call.validate, input);
      if (!prepared.ok) {
        const reason = `invalid input for '${call.name}': ${prepared.issues}`;
        return { decision: 'deny', reason, hook: null, input, rewritten: false, invalidRewrite: null, context: null, env: NO_ENV, record: none(input), aborted: false };
      }
      input = prepared.value;
    }
    const record = this.has('tool_call_before')
      ? await this.runtime.toolCallBefore({ name: call.name, callId, input, mode, model: this.#facts.model, posture: call.posture ?? null, signal })
      : none(input);
    if (signal?.aborted) return cancelledGate(input, record);
    let gate = await gateOf(record, input, call.validate);
    if (gate.decision === 'ask' && call.approve) {
      let yes = false;
      try {
        yes = await call.approve({ name: call.name, callId, input: gate.input, reason: gate.reason, hook: gate.hook, signal });
      } catch {
        yes = false;
      }
      if (signal?.aborted) return cancelledGate(input, record);
      gate = yes ? { ...gate, decision: 'allow' } : { ...gate, decision: 'deny', reason: `not approved: ${gate.reason ?? 'a tool_call_before hook asked for approval'}`, context: null };
    }
    let env: ReadonlyMap<string, string> = NO_ENV;
    if (gate.decision === 'allow' && call.shellEnv !== false) {
      env = (await this.shellEnv({ name: call.name, input: gate.input, signal })).vars;
      if (signal?.aborted) return cancelledGate(input, record);
    }
    return { ...gate, env, aborted: false };
  }

  /**
   * `shell_env` for one command, right before it starts: only for a shell tool (`bash`, `Bash`,
   * `exec_shell`; empty for any other), seen by hooks as `exec_shell`; key names go to the
   * audit log; a failing hook contributes nothing. The values are remembered and masked by
   * `Hooks.decorate` / {@link mask} from then on.
   */
  async shellEnv(tool: { readonly name: string; readonly input: unknown; readonly signal?: AbortSignal | null }): Promise<{ readonly vars: ReadonlyMap<string, string> }> {
    const call = shellEnvCall(tool.name, tool.input);
    if (!call || !this.has('shell_env') || tool.signal?.aborted) return { vars: NO_ENV };
    let vars: ReadonlyMap<string, string>;
    try {
      vars = (await this.runtime.shellEnv({ ...call, signal: tool.signal ?? null })).vars;
    } catch {
      return { vars: NO_ENV };
    }
    this.#mask.add(vars.values());
    return { vars };
  }

  /** `text` with every `shell_env` value this session produced replaced by `***`. */
  mask(text: string): string {
    return this.#mask.mask(text);
  }

  /** The tool result the model should see: `shell_env` values masked, the hooks' context appended as `[hook context] …`. */
  decorate(gate: Pick<ToolGate, 'context'> | null, text: string): string {
    return appendHookContext(this.mask(text), gate?.context ?? null);
  }

  /**
   * `tool_call_after` for a settled call (and `on_error` when it failed — not when it was
   * refused: pass the call's `gate` or `denied: true`). Shell calls carry the execution
   * receipt built from `receipt`; the result text is masked. Observers: submitted without
   * waiting; a dropped event is reported through `onNotice`.
   */
  async afterToolCall(call: ToolCallResult & { readonly gate?: Pick<ToolGate, 'decision'> | null; readonly mode?: string | null }): Promise<void> {
    const denied = call.denied ?? call.gate?.decision === 'deny';
    const { tool, receipt, onError } = toolCallAfterFacts({ ...call, result: this.mask(call.result), denied });
    const facts = this.facts(call.mode);
    this.lifecycle.submit({ event: 'tool_call_after', facts, tool, receipt });
    if (onError) this.lifecycle.submit({ event: 'on_error', facts, error: `tool \`${call.name}\` failed: ${tool.result ?? ''}`, tool });
  }

  /**
   * Read the configuration again (hot reload): the same session id; a broken edit keeps the
   * hooks that were loaded and says why. Project hooks follow the approval the session started
   * with (D14): an approval given during the session (of new bytes, new scripts, or a workspace
   * whose hooks did not load) takes effect in the next session, so those hooks stay out and a
   * note says so; a revocation or a changed file takes them out at once.
   */
  reload(): { readonly changed: boolean; readonly failed?: true; readonly hookCount: number; readonly notes: readonly string[] } {
    let next: HookConfiguration;
    try {
      next = loadConfiguration(this.paths, this.workspace);
    } catch (e) {
      const issues = e instanceof HooksConfigError && e.issues.length ? e.issues.map((i) => i.message) : [(e as Error).message];
      return { changed: false, failed: true, hookCount: this.runtime.hooks.hooks.length, notes: [`the configuration was not reloaded: ${issues.join('; ')}`] };
    }
    const notes = configurationNotes(next);
    const approval = projectApprovalKey(next);
    if (approval !== null && approval !== this.#approvalAtStart) {
      next = withoutProjectHooks(next);
      notes.unshift(APPROVED_NEXT_SESSION_NOTE);
    }
    const changed = next.digest !== this.#configuration.digest;
    this.#configuration = next;
    this.runtime.rebind(next.loaded.set, next.digest, projectRevocationCheck(next));
    return { changed, hookCount: next.loaded.set.hooks.length, notes };
  }

  /** Wait for submitted observer and background hooks. */
  idle(): Promise<void> {
    return this.runtime.idle();
  }

  /** Wait for pending hooks, then stop the pools. */
  async close(): Promise<void> {
    await this.runtime.idle();
    await this.runtime.close();
  }
}

function cancelledGate(input: unknown, record: GateDecisionRecord): ToolGate {
  return { decision: 'deny', reason: CANCELLED_REASON, hook: null, input, rewritten: false, invalidRewrite: null, context: null, env: NO_ENV, record, aborted: true };
}

/**
 * The UI-side lifecycle events: what a loop says happened; the runtime builds each hook's
 * environment and stdin document. `sessionStart`, `sessionEnd` and `messageSubmit` wait for
 * their hooks; the others are observers, submitted without waiting.
 */
export class Lifecycle {
  readonly #hooks: Hooks;
  readonly #runtime: HookRuntime;
  readonly #notify: (n: HooksNotice) => void;
  #machine: SessionStateMachine = INITIAL_SESSION_STATE;

  constructor(hooks: Hooks, runtime: HookRuntime, notify: (n: HooksNotice) => void) {
    this.#hooks = hooks;
    this.#runtime = runtime;
    this.#notify = notify;
  }

  /** @internal submit an observer event; a dropped one is reported. */
  submit(fact: LifecycleFact): void {
    const r = this.#runtime.emit(fact);
    if (!r.ok) this.#notify({ level: 'error', message: r.error });
  }

  sessionStart(o: CallOptions = {}): Promise<readonly HookOutcome[]> {
    return this.#runtime.runLifecycle({ event: 'session_start', facts: this.#hooks.facts() }, o.signal ?? null);
  }

  sessionEnd(o: CallOptions = {}): Promise<readonly HookOutcome[]> {
    return this.#runtime.runLifecycle({ event: 'session_end', facts: this.#hooks.facts() }, o.signal ?? null);
  }

  /** `message_submit`: the text to send (`replaced` / `unchanged`) or `blocked` with a reason. */
  messageSubmit(text: string, o: CallOptions = {}): Promise<MessageSubmitResult> {
    return this.#runtime.messageSubmit(text, { ...this.#hooks.facts(), signal: o.signal ?? null });
  }

  turnEnd(t: TurnEnd): void {
    const facts = this.#hooks.facts();
    const usage = t.usage
      ? {
          inputTokens: t.usage.inputTokens,
          outputTokens: t.usage.outputTokens,
          promptCacheHitTokens: null,
          promptCacheMissTokens: null,
          promptCacheWriteTokens: null,
          reasoningTokens: null,
          reasoningReplayTokens: null,
        }
      : null;
    const total = facts.totalTokens ?? 0;
    this.submit({
      event: 'turn_end',
      facts,
      turn: {
        mode: facts.mode,
        createdAt: t.createdAt ?? new Date(Date.now() - t.durationMs),
        modelBacked: true,
        provider: t.provider ?? null,
        billingSurface: null,
        model: facts.model,
        turnId: t.turnId,
        status: t.status,
        error: t.error ?? null,
        durationMs: t.durationMs,
        usage,
        totals: { sessionTokens: total, conversationTokens: total, inputTokens: t.usage?.inputTokens ?? 0, outputTokens: t.usage?.outputTokens ?? 0 },
        toolCount: t.toolCount ?? 0,
        queuedMessageCount: t.queuedMessageCount ?? 0,
      },
    });
    if (t.status === 'failed') this.submit({ event: 'session_error', facts, status: t.status, error: t.error ?? 'the turn failed' });
  }

  /** `mode_change` (and the mode later events carry). */
  modeChange(mode: string): void {
    const previousMode = this.#hooks.facts().mode ?? '';
    this.#hooks.update({ mode });
    this.submit({ event: 'mode_change', facts: this.#hooks.facts(), previousMode });
  }

  /** `on_error` for a transport, capacity or auth error (tool failures go through `afterToolCall`). */
  error(message: string): void {
    this.submit({ event: 'on_error', facts: this.#hooks.facts(), error: message });
  }

  subagentSpawn(agentId: string, prompt: string): void {
    this.submit({ event: 'subagent_spawn', facts: this.#hooks.facts(), agentId, prompt });
  }

  subagentComplete(agentId: string, result: string, status: 'completed' | 'failed' | 'cancelled'): void {
    this.submit({ event: 'subagent_complete', facts: this.#hooks.facts(), agentId, result, status });
  }

  /**
   * The session's state: `session_busy`, `waiting_for_user` and `session_idle` fire on real
   * transitions only (the first observation and repeats are silent).
   */
  state(observation: SessionObservation): void {
    const { machine, transition } = observeSessionState(this.#machine, observation);
    this.#machine = machine;
    if (transition) this.submit({ event: transition.event, facts: this.#hooks.facts(), transition });
  }
}

/**
 * Open the user's hooks for an agent session in `workspace`: one object whose calls apply
 * every rule of the hook contract. Throws `HooksConfigError` only when the user's config file
 * cannot be used; everything smaller (a rejected entry, project hooks pending approval) is a
 * notice, and those hooks do not run.
 */
export async function openHooks(options: OpenHooksOptions): Promise<Hooks> {
  return Hooks.open(options);
}
