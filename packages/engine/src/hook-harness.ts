import { engineModeSpelling, type GateDecisionRecord } from '@codewhale/hooks-payloads';
import { resolveRoute } from './provider/route.js';
import { HookRuntime, MemoryLogger, projectRevocationCheck, resolvePaths, type HookConfiguration } from '@codewhale/hooks-supervisor';
import { canonicalWorkspace, loadHooks, permissionRulesOf, settingsOf } from './open-session.js';
import type { Mode } from './modes.js';
import { planToolCall, type PermissionCheck, type ToolPlan } from './plan-tool-call.js';
import { BUILTIN_TOOLS } from './tools/registry.js';

/** The model named in synthetic contexts when the config names none. */
const FALLBACK_MODEL = 'deepseek-chat';

const TOOLS = new Map(BUILTIN_TOOLS.map((t) => [t.name, t]));

/** Stages at which the engine refuses a call before `tool_call_before` runs. */
const BEFORE_HOOKS = new Set<ToolPlan['stage']>(['cancelled', 'lookup', 'parse', 'mode', 'schema']);

/** What a dry run of one tool call found: the shared gate chain's plan and, always, the hooks' record. */
export interface DryRunCall {
  readonly plan: ToolPlan;
  /** What the `tool_call_before` hooks decided (a record with no hooks when none matched). */
  readonly decision: GateDecisionRecord;
  /** The engine refuses the call before any hook runs (the hooks were run anyway, for the report). */
  readonly refusedBeforeHooks: boolean;
  /** `allow`, `deny` or `ask`: what a real session would do after the hooks and the typed rules. */
  readonly effective: 'allow' | 'deny' | 'ask';
}

/**
 * The hooks of a workspace, loaded exactly as a session loads them (global plus trusted and
 * approved project hooks, revocation checked at spawn), with a runtime that writes nothing to
 * disk (no audit log, no decision log) and keeps its warnings in memory. `hooks test` and
 * `hooks test --replay` use it, and plan each call through {@link planToolCall} — the gate
 * chain a real session uses — so a dry run cannot drift from a real run.
 */
export class HookHarness {
  readonly configuration: HookConfiguration;
  readonly runtime: HookRuntime;
  readonly logger = new MemoryLogger();
  readonly model: string;
  readonly workspace: string;
  readonly #permissions: PermissionCheck | null;

  private constructor(configuration: HookConfiguration, workspace: string, env: Readonly<Record<string, string | undefined>>, permissions: PermissionCheck | null) {
    this.configuration = configuration;
    this.workspace = workspace;
    this.#permissions = permissions;
    this.runtime = new HookRuntime({
      hooks: configuration.loaded.set,
      workspace,
      parentEnv: env,
      logger: this.logger,
      auditLog: null,
      decisionLog: null,
      isRevoked: projectRevocationCheck(configuration),
      hookSetDigest: configuration.digest,
    });
    let model = FALLBACK_MODEL;
    try {
      const settings = settingsOf(configuration.loaded.userConfig.document, configuration.configText, configuration.paths.configPath);
      model = resolveRoute({ settings, env }).model || FALLBACK_MODEL;
    } catch {
      // an unusable route does not matter to a dry run: keep the fallback name
    }
    this.model = model;
  }

  /** Load the configuration; `config` errors (file, line, fix) as `EngineError`s. */
  static open(options: {
    readonly workspace: string;
    readonly env?: Readonly<Record<string, string | undefined>>;
    readonly configPath?: string | null;
    readonly permissions?: PermissionCheck | null;
  }): HookHarness {
    const env = options.env ?? process.env;
    const workspace = canonicalWorkspace(options.workspace);
    const paths = resolvePaths(env, options.configPath ?? null);
    // The same typed rules a session applies (an unreadable rule file is a config error, fail closed).
    const permissions = options.permissions === undefined ? permissionRulesOf(paths.configPath).check : options.permissions;
    return new HookHarness(loadHooks(paths, workspace), workspace, env, permissions);
  }

  /**
   * Plan one tool call as a session would (mode gate, schema, hooks, re-validated rewrite,
   * typed rules). When the engine would refuse the call before the hooks, the hooks are run
   * on the input anyway, so the report can still show what they decide.
   */
  async planCall(call: { readonly id: string; readonly name: string; readonly input: unknown; readonly mode: Mode }): Promise<DryRunCall> {
    const rt = this.runtime;
    const plan = await planToolCall({
      call: { id: call.id, name: call.name, arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}) },
      tools: TOOLS,
      knownTools: BUILTIN_TOOLS,
      workspace: this.workspace,
      mode: call.mode,
      posture: 'ask',
      model: this.model,
      // Always consulted, so the report has a record even when no hook matched (the fold of none is allow).
      gate: (c) => rt.toolCallBefore(c),
      permissions: this.#permissions,
    });
    if (BEFORE_HOOKS.has(plan.stage)) {
      const tool = TOOLS.get(call.name);
      const prepared = tool?.schema.safeParse(call.input);
      const input = prepared?.success ? prepared.data : call.input;
      const decision = await rt.toolCallBefore({ name: call.name, callId: call.id, input, mode: engineModeSpelling(call.mode), model: this.model });
      return { plan, decision, refusedBeforeHooks: true, effective: decision.decision };
    }
    const effective = plan.kind === 'blocked' ? 'deny' : plan.approval === 'hook' || plan.approval === 'permission' ? 'ask' : 'allow';
    return { plan, decision: plan.decision!, refusedBeforeHooks: false, effective };
  }

  /** Wait for background submissions, then stop the pools. */
  async close(): Promise<void> {
    await this.runtime.idle();
    await this.runtime.close();
  }
}
