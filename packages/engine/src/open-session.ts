import { realpathSync, statSync } from 'node:fs';
import { parseUserConfig, type FileIssue } from '@codewhale/hooks-config';
import { sanitizeLine } from '@codewhale/hooks-payloads';
import { Hooks, HooksConfigError } from '@codewhale/hooks';
import { configurationNotes, loadConfiguration } from '@codewhale/hooks/internal';
import { BackgroundPool, ObserverDispatcher, readUserConfig as readConfigText, resolvePaths, spawnerInUse, type CodewhalePaths, type HookConfiguration } from '@codewhale/hooks-supervisor';
import { EngineError, type ErrorIssue } from './errors.js';
import { createProvider, resolveRoute } from './provider/route.js';
import type { PermissionCheck } from './plan-tool-call.js';
import { alwaysRuleFor, type AlwaysOutcome } from './always-rule.js';
import type { ApprovalRequest } from './events.js';
import { loadPermissionRules, permissionCheck, permissionsPathFor, writePermissionRule } from './settings/permissions-file.js';
import { readSettings } from './settings/read-settings.js';
import { retryOptions, type Settings } from './settings/settings.js';
import { ReplayProvider } from './provider/replay-provider.js';
import type { ModelProvider } from './provider/types.js';
import { SessionHost, type LifecycleHooks, type Reloader } from './session-host.js';
import { SHELL_TOOL_NAMES } from './tools/shell-tool.js';
import type { HostNotice, OpenSessionOptions, ReloadReport, SharedPools } from './surface.js';

export type { SharedPools } from './surface.js';

/** Pools for many sessions; close them with {@link closeSharedPools} once every session is disposed. */
export function createSharedPools(): SharedPools {
  return { backgroundPool: new BackgroundPool(), observerDispatcher: new ObserverDispatcher() };
}

export async function closeSharedPools(pools: SharedPools): Promise<void> {
  await pools.observerDispatcher.idle();
  await pools.backgroundPool.idle();
  await pools.observerDispatcher.close();
  await pools.backgroundPool.close();
}

function issueOf(i: FileIssue): ErrorIssue {
  return { file: i.file ?? null, line: i.line ?? null, message: i.summary, fix: null };
}

function configError(issues: readonly FileIssue[], path: string): EngineError {
  const first = issues[0];
  return new EngineError('config', first ? first.summary : `cannot read ${path}`, {
    issues: issues.map(issueOf),
    fix: 'fix the file (it was not changed), then run `codewhale hooks validate`',
  });
}

/** The canonical workspace directory, or a `config` error naming it. */
/** @internal */
export function canonicalWorkspace(dir: string): string {
  try {
    const real = realpathSync(dir);
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
    return real;
  } catch {
    throw new EngineError('config', `the workspace is not a directory: ${dir}`, { fix: 'pass an existing directory with --workspace' });
  }
}

/** Read the user's config once: its text and parsed document (a missing file is an empty config). */
function readUserConfig(paths: CodewhalePaths): { readonly document: Record<string, unknown>; readonly text: string } {
  // Never blocks: a FIFO, socket, device or directory is refused with a message naming it.
  const read = readConfigText(paths.configPath);
  if (!read.ok) throw new EngineError('config', read.issues[0]!.message, { fix: 'make it a readable regular file' });
  const text = read.value.text;
  const parsed = parseUserConfig(text, paths.configPath);
  if (!parsed.ok) throw configError(parsed.issues, paths.configPath);
  return { document: parsed.value.document as Record<string, unknown>, text };
}

/** `[retry]`, the route keys, `[providers.*]` and `[tui]`, validated; any problem is a `config` error with every issue. */
export function settingsOf(document: unknown, text: string, file: string): Settings {
  const r = readSettings({ document, text, file });
  if (!r.ok) {
    const first = r.issues[0]!;
    throw new EngineError('config', r.issues.length === 1 ? first.summary : `${first.summary} (and ${r.issues.length - 1} more)`, { issues: r.issues, fix: first.fix });
  }
  return r.value;
}

/**
 * The typed rules of `permissions.toml` beside the config. A file that cannot be read or
 * parsed is a `config` error (it may hold a `deny`: fail closed); a bad entry is dropped with
 * a note, the rest apply.
 */
export function permissionRulesOf(configPath: string): { readonly check: PermissionCheck; readonly notes: readonly string[] } {
  const r = loadPermissionRules(permissionsPathFor(configPath));
  if (!r.ok) throw configError(r.issues, permissionsPathFor(configPath));
  return { check: permissionCheck(r.value), notes: r.value.issues.map((i) => i.summary) };
}

/** The hook configuration of a workspace (@codewhale/hooks's loader); an unusable config file is a `config` error. */
export function loadHooks(paths: CodewhalePaths, workspace: string): HookConfiguration {
  try {
    return loadConfiguration(paths, workspace);
  } catch (e) {
    if (!(e instanceof HooksConfigError)) throw e;
    if (e.issues.every((i) => i.code === 'unreadable' && i.line === null)) throw new EngineError('config', e.message, { fix: 'make it a readable regular file' });
    throw configError(e.issues, paths.configPath);
  }
}

/** Lines about what a configuration leaves out: rejected entries, project hooks that do not load. */
export const hookConfigurationNotes = configurationNotes;

async function openProvider(o: OpenSessionOptions, settings: Settings, env: Readonly<Record<string, string | undefined>>): Promise<ModelProvider> {
  if (o.provider) return o.provider;
  const flags = o.flags ?? {};
  if (flags.replay) {
    try {
      return await ReplayProvider.fromFile(flags.replay);
    } catch (e) {
      if (EngineError.isInstance(e)) throw e;
      throw new EngineError('config', `cannot read the replay script ${flags.replay}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
        fix: 'pass a readable JSONL replay script',
      });
    }
  }
  return createProvider(resolveRoute({ settings, env, flags: { provider: flags.provider, model: flags.model } }));
}

/** Whether a session may spawn anything: hooks it was given or loaded, or a shell tool (the default tools have one). */
function mayStartProcesses(o: OpenSessionOptions, configuration: HookConfiguration | null): boolean {
  if (o.hooks != null || (configuration?.loaded.set.hooks.length ?? 0) > 0) return true;
  return o.tools === undefined || o.tools.some((t) => SHELL_TOOL_NAMES.has(t.name));
}

/**
 * Open a session the way every surface does: read the user's config once, resolve the model
 * route and the `[retry]` policy, load the hook configuration (global hooks plus the
 * workspace's project hooks when trusted and approved), build the hook runtime with its audit
 * and decision logs and the immediate-revocation check, and return the {@link SessionHost}.
 *
 * Which hooks: an injected `hooks` dispatcher wins (an embedder's own; `null` for none);
 * otherwise hooks load from disk, except for the `exec` profile without `flags.hooks`.
 * Failures are `EngineError`s with category `config` (file, line, fix in `issues`).
 */
export async function openSession(o: OpenSessionOptions): Promise<SessionHost> {
  const env = o.env ?? process.env;
  const flags = o.flags ?? {};
  const paths = resolvePaths(o.home ? { ...env, CODEWHALE_HOME: o.home } : env, flags.configPath ?? null);
  const workspace = canonicalWorkspace(o.workspace);
  const fromDisk = o.hooks === undefined && (o.profile !== 'exec' || flags.hooks === true);
  const configuration = fromDisk ? loadHooks(paths, workspace) : null;
  // A session that can spawn (a hook, or a shell tool) loads the native spawner now, not on
  // its first tool call.
  if (mayStartProcesses(o, configuration)) spawnerInUse();
  const user = configuration ? { document: configuration.loaded.userConfig.document, text: configuration.configText } : readUserConfig(paths);
  const settings = settingsOf(user.document, user.text, paths.configPath);
  const retry = retryOptions(settings.retry);
  const provider = await openProvider(o, settings, env);
  // Typed rules apply on every surface and in every mode, whatever loads the hooks.
  let rules = permissionRulesOf(paths.configPath);
  const permissions: PermissionCheck = (call) => rules.check(call);
  // "Always allow": the rule goes to the file under its lock, then this session reads the file
  // again so the rule applies from the next call (with any rule another writer added meanwhile).
  const rememberAlways = (request: ApprovalRequest): AlwaysOutcome => {
    const r = alwaysRuleFor(request, workspace);
    if (!r.ok) return r;
    const file = permissionsPathFor(paths.configPath);
    writePermissionRule(file, r.rule);
    rules = permissionRulesOf(paths.configPath);
    return { ok: true, rule: r.rule, file };
  };

  // Notices before the host exists (configuration problems at open) wait for it.
  const early: HostNotice[] = rules.notes.map((note) => ({ level: 'warning', message: sanitizeLine(note, 400).text, durationMs: 6_000 }));
  const sink: { current: (n: HostNotice) => void } = { current: (n) => early.push(n) };
  let hooks: LifecycleHooks | null = o.hooks ?? null;
  let opened: Hooks | null = null;
  let reloader: Reloader | undefined;
  if (configuration) {
    // The operator's hooks, through @codewhale/hooks: audit log, decision log, immediate
    // revocation and problem reporting are its defaults.
    const h = Hooks.open({
      workspace,
      env,
      configuration,
      ...(o.history?.sessionId ? { sessionId: o.history.sessionId } : {}),
      auditLog: o.auditLog !== false,
      ...(o.decisionLogPath !== undefined ? { decisionLog: o.decisionLogPath } : {}),
      ...(o.pools ? { pools: o.pools } : {}),
      onNotice: (n) => sink.current({ level: n.level, message: n.message, durationMs: n.level === 'error' ? 12_000 : 6_000 }),
    });
    opened = h;
    hooks = h.runtime;
    reloader = (): ReloadReport => {
      try {
        rules = permissionRulesOf(paths.configPath);
      } catch (e) {
        const issues = EngineError.isInstance(e) && e.issues.length ? e.issues.map((i) => `${i.message}`) : [(e as Error).message];
        return { changed: false, failed: true, hookCount: h.runtime.hooks.hooks.length, notes: [`the configuration was not reloaded: ${issues.join('; ')}`] };
      }
      const r = h.reload();
      return { changed: r.changed, ...(r.failed ? { failed: true as const } : {}), hookCount: r.hookCount, notes: [...r.notes, ...rules.notes] };
    };
  }

  const host = new SessionHost({
    provider,
    workspace,
    hooks,
    profile: o.profile,
    sessionId: o.history?.sessionId ?? null,
    ...(o.history ? { history: o.history.history, todos: o.history.todos, totals: o.history.totals } : {}),
    mode: flags.mode ?? o.history?.mode ?? 'work',
    posture: flags.posture ?? o.history?.posture ?? 'ask',
    interaction: o.interaction,
    askFailsClosed: o.askFailsClosed ?? o.profile === 'exec',
    allowedTools: flags.allowedTools ?? null,
    disallowedTools: flags.disallowedTools ?? [],
    ...(flags.maxSteps ? { maxSteps: flags.maxSteps } : {}),
    ...(o.tools ? { tools: o.tools } : {}),
    ...(o.systemPrompt !== undefined ? { systemPrompt: o.systemPrompt } : {}),
    parentEnv: env,
    retry,
    permissions,
    settings,
    ...(reloader ? { reloader } : {}),
    rememberAlways,
    activeHooks: () => opened?.configuration ?? null,
    onDispose: async () => {
      if (opened) await opened.runtime.close();
    },
  });
  sink.current = (n) => host.postNotice(n);
  for (const n of early) host.postNotice(n);
  return host;
}
