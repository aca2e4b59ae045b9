import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeProjectStatus, parseUserConfig, type FileIssue } from '@codewhale/hooks-config';
import { sanitizeLine } from '@codewhale/hooks-payloads';
import {
  BackgroundPool,
  HookRuntime,
  JsonlLog,
  ObserverDispatcher,
  loadHookConfiguration,
  projectRevocationCheck,
  readUserConfig as readConfigText,
  resolvePaths,
  spawnerInUse,
  type CodewhalePaths,
  type HookConfiguration,
  type HookLogger,
} from '@codewhale/hooks-supervisor';
import { EngineError, type ErrorIssue } from './errors.js';
import { createProvider, resolveRoute } from './provider/route.js';
import type { PermissionCheck } from './plan-tool-call.js';
import { loadPermissionRules, permissionCheck, permissionsPathFor } from './settings/permissions-file.js';
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

export function loadHooks(paths: CodewhalePaths, workspace: string): HookConfiguration {
  let r: ReturnType<typeof loadHookConfiguration>;
  try {
    r = loadHookConfiguration({ paths, workspace });
  } catch (e) {
    throw new EngineError('config', `cannot read ${paths.configPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { fix: 'make it a readable regular file' });
  }
  if (!r.ok) throw configError(r.issues, paths.configPath);
  return r.value;
}

/** Lines about what a configuration leaves out: rejected entries, project hooks that do not load. */
export function hookConfigurationNotes(config: HookConfiguration, scope: 'session' | 'run' = 'session'): string[] {
  const notes: string[] = [];
  const p = config.loaded.project;
  if (p && p.state !== 'none' && !p.loadable) {
    const status = describeProjectStatus({ state: p.state, trusted: p.trusted, digest: p.digest, loaded: p.loadable, changedScripts: p.changedScripts.length });
    notes.push(`project hooks are not part of this ${scope}: ${status}`);
  }
  for (const problem of config.loaded.set.problems) notes.push(problem.summary);
  return notes;
}

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

/** A hook logger that forwards the supervisor's (already safe) records to the session's notices, bounded. */
function noticeLogger(sink: { current: ((n: HostNotice) => void) | null }): HookLogger {
  return {
    warn(message, fields = {}) {
      const detail = Object.entries(fields)
        .map(([k, v]) => `${k}=${v === null ? 'null' : String(v)}`)
        .join(' ');
      const text = sanitizeLine(detail ? `${message} (${detail})` : message, 400).text;
      sink.current?.({ level: 'warning', message: text, durationMs: 6_000 });
    },
  };
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

  const sink: { current: ((n: HostNotice) => void) | null } = { current: null };
  let hooks: LifecycleHooks | null = o.hooks ?? null;
  let runtime: HookRuntime | null = null;
  let reloader: Reloader | undefined;
  // The configuration the session's hooks were loaded from (replaced by each reload).
  let active: HookConfiguration | null = null;
  const startupNotes: string[] = [...rules.notes];
  if (configuration) {
    const decisionLogPath = o.decisionLogPath === undefined ? env.CODEWHALE_TOOL_AUDIT_LOG || null : o.decisionLogPath;
    runtime = new HookRuntime({
      hooks: configuration.loaded.set,
      workspace,
      ...(o.history?.sessionId ? { sessionId: o.history.sessionId } : {}),
      parentEnv: env,
      logger: noticeLogger(sink),
      auditLog: o.auditLog === false ? null : new JsonlLog(paths.auditLog),
      decisionLog: decisionLogPath ? new JsonlLog(resolve(workspace, decisionLogPath)) : null,
      isRevoked: projectRevocationCheck(configuration),
      hookSetDigest: configuration.digest,
      ...(o.pools ? { backgroundPool: o.pools.backgroundPool, observerDispatcher: o.pools.observerDispatcher } : {}),
    });
    hooks = runtime;
    startupNotes.push(...hookConfigurationNotes(configuration));
    active = configuration;
    let current = configuration;
    const rt = runtime;
    reloader = (): ReloadReport => {
      let next: HookConfiguration;
      try {
        next = loadHooks(paths, workspace);
        rules = permissionRulesOf(paths.configPath);
      } catch (e) {
        // A broken edit keeps the hooks that were loaded: report it, never drop to no hooks silently.
        const issues = EngineError.isInstance(e) && e.issues.length ? e.issues.map((i) => `${i.message}`) : [(e as Error).message];
        return { changed: false, failed: true, hookCount: rt.hooks.hooks.length, notes: [`the configuration was not reloaded: ${issues.join('; ')}`] };
      }
      const changed = next.digest !== current.digest;
      current = next;
      active = next;
      rt.rebind(next.loaded.set, next.digest, projectRevocationCheck(next));
      return { changed, hookCount: next.loaded.set.hooks.length, notes: [...hookConfigurationNotes(next), ...rules.notes] };
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
    activeHooks: () => active,
    onDispose: async () => {
      if (runtime) await runtime.close();
    },
  });
  sink.current = (n) => host.postNotice(n);
  for (const note of startupNotes) host.postNotice({ level: 'warning', message: sanitizeLine(note, 400).text, durationMs: 6_000 });
  return host;
}
