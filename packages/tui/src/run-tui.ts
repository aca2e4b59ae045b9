import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSession as engineOpenSession, permissionsPathFor, rememberPermissionRule, type OpenSessionOptions, type SessionHostApi } from '@codewhale/engine';
import { alwaysRuleFor } from './always-allow.js';
// Ink and the components are loaded when the UI starts: Ink's layout engine (yoga) initialises with
// a top-level await, which would stop `require('@codewhale/tui')` and cost every import of the
// pure parts.
import type { TrustChoice } from './components/trust-prompt.js';
import { watchFiles } from './config-watch.js';
import { controlSocketPath, openControlSocket, type ControlSocket } from './control-socket.js';
import { Screen } from './screen.js';
import { oneLine } from './text-bounds.js';
import { TuiController, type RunCommand } from './tui-controller.js';
import { TuiStore, type AlwaysAllow, type TrustGate } from './tui-store.js';

export interface RunTuiOptions {
  readonly workspace?: string;
  readonly configPath?: string;
  readonly provider?: string;
  readonly model?: string;
  /** A replay script (JSONL): the whole UI runs offline. */
  readonly replay?: string;
  /** Start in Full Access. */
  readonly auto?: boolean;
  /** A first message, submitted once the UI is up. */
  readonly prompt?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /**
   * Runs a `codewhale` command line in-process with captured output — the cli's own
   * implementation of `hooks …` and `trust`, so `/hooks` in the UI is the same code.
   */
  readonly runHooksCommand?: RunCommand;
  /** The "always" approval choice; default: a typed `[[rules]]` entry appended to `permissions.toml` beside `config.toml`. */
  readonly alwaysAllow?: AlwaysAllow;
  readonly stdin?: NodeJS.ReadStream;
  readonly stdout?: NodeJS.WriteStream;
  readonly stderr?: NodeJS.WriteStream;
  /** Replace `openSession` (embedders); the real binary always uses the engine's. */
  readonly openSession?: (o: OpenSessionOptions) => Promise<SessionHostApi>;
}

/** Exit codes of the interactive UI. */
export const TUI_EXIT = {
  ok: 0,
  /** The session failed to end cleanly, or could not start (unknown provider, a failing session_start…). */
  failure: 1,
  /** Not a terminal: stdin or stdout is not a TTY, or TERM is `dumb`. */
  notTerminal: 2,
  /** Configuration error: config.toml, hooks.toml or permissions.toml cannot be read or parsed (as every `codewhale` command). */
  config: 3,
} as const;

/** The exit code for a session that could not start. */
export function startFailureCode(e: unknown): number {
  return e instanceof Error && (e as Error & { category?: unknown }).category === 'config' ? TUI_EXIT.config : TUI_EXIT.failure;
}

/** Why the UI cannot run here, or `null` when it can. */
export function terminalProblem(stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): string | null {
  if (!stdin.isTTY) return 'stdin is not a terminal';
  if (!stdout.isTTY) return 'stdout is not a terminal';
  if (env.TERM === 'dumb') return 'TERM is "dumb"';
  return null;
}

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

interface ReviewJson {
  present?: boolean;
  trusted?: boolean;
  state?: string;
}

/**
 * Ink, React and the trust prompt, loaded once, when the launch trust prompt is shown (the
 * session's own screen is drawn without them: see `Screen`). React picks its build from
 * `NODE_ENV` when it is first loaded; with none set it is the development build (checks and
 * bookkeeping on every render). So when `NODE_ENV` is unset, it reads `production` while these
 * modules load and is unset again right after; a value the person set is left alone (and
 * obeyed). Hooks and the shell tool never see it either way: their environment is the copy
 * taken before (`env`), not `process.env`. Nothing else in this module loads React, so
 * importing the package does not decide the build.
 */
let ui: Promise<{
  ink: typeof import('ink');
  trust: typeof import('./components/trust-prompt.js');
}> | null = null;
export function loadUi(): NonNullable<typeof ui> {
  if (ui) return ui;
  const unset = process.env.NODE_ENV === undefined;
  if (unset) process.env.NODE_ENV = 'production';
  const restore = () => {
    if (unset) delete process.env.NODE_ENV;
  };
  ui = (async () => {
    const [ink, trust] = await Promise.all([import('ink'), import('./components/trust-prompt.js')]);
    return { ink, trust };
  })().then(
    (loaded) => {
      restore();
      return loaded;
    },
    (e: unknown) => {
      restore();
      ui = null;
      throw e;
    },
  );
  return ui;
}

async function askTrust(gate: TrustGate, stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): Promise<TrustChoice> {
  const {
    ink: { render },
    trust: { trustPromptElement },
  } = await loadUi();
  return new Promise<TrustChoice>((resolveChoice) => {
    let done = false;
    const inst = render(
      trustPromptElement({
        gate,
        onChoice: (c: TrustChoice) => {
          if (done) return;
          done = true;
          // Let the one-line answer render, then hand the terminal to the session.
          setTimeout(() => {
            inst.unmount();
            resolveChoice(c);
          }, 20);
        },
      }),
      { stdin, stdout, exitOnCtrlC: false, patchConsole: false },
    );
  });
}

/** A failure as the person should see it: one line, the fix, the file and line of each problem; never a stack. */
export function describeFailure(e: unknown): string {
  if (!(e instanceof Error)) return `error: ${String(e)}\n`;
  const x = e as Error & { fix?: string | null; issues?: readonly { file: string | null; line: number | null; message: string }[] };
  let out = `error: ${e.message.split('\n')[0]}\n`;
  for (const i of (x.issues ?? []).slice(1, 10)) out += `  ${i.file ?? ''}${i.line ? `:${i.line}` : ''}${i.file ? ': ' : ''}${i.message}\n`;
  if (x.fix) out += `hint: ${x.fix}\n`;
  return out;
}

/** Start the interactive UI; resolves to the process exit code once the session has ended. */
export async function runTui(options: RunTuiOptions = {}): Promise<number> {
  // A copy: the session's hooks and shell commands take their environment from it, whatever
  // this process's own environment becomes (see loadUi).
  const env = options.env ?? { ...process.env };
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const problem = terminalProblem(stdin, stdout, env);
  if (problem) {
    stderr.write(`error: the interactive UI needs a terminal (${problem})\nhint: run it in a terminal, or use \`codewhale exec "<prompt>"\` for scripts and pipes\n`);
    return TUI_EXIT.notTerminal;
  }
  const workspace = resolve(options.cwd ?? process.cwd(), options.workspace ?? '.');
  const home = env.CODEWHALE_HOME || join(homedir(), '.codewhale');
  const configPath = options.configPath ?? env.CODEWHALE_CONFIG_PATH ?? join(home, 'config.toml');
  const wsArgs = ['--workspace', workspace, ...(options.configPath ? ['--config', options.configPath] : [])];

  // The launch trust prompt (an explicit key press; `--auto` skips it, as `--yolo` does).
  const run = options.runHooksCommand;
  const notes: string[] = [];
  if (run) {
    let review: ReviewJson = {};
    try {
      const r = await run(['hooks', 'review', '--json', ...wsArgs]);
      review = JSON.parse(r.stdout) as ReviewJson;
    } catch {
      review = {};
    }
    const projectHooks = review.present ? (review.state ?? 'pending') : null;
    if (review.trusted === false && !options.auto) {
      const choice = await askTrust({ workspace, projectHooks }, stdin, stdout);
      if (choice === 'quit') return TUI_EXIT.ok;
      if (choice === 'trust') {
        const t = await run(['trust', ...wsArgs]);
        notes.push(oneLine(`${t.stdout}${t.stderr}`.trim(), 400));
      } else notes.push('continuing untrusted for this session');
    }
    if (projectHooks && projectHooks !== 'approved')
      notes.push(
        `project hooks in .codewhale/hooks.toml are ${projectHooks === 'changed' ? 'changed since approval' : 'pending approval'}: review them with /hooks review, then /hooks approve <digest>`,
      );
  }

  const store = new TuiStore();
  for (const n of notes) if (n) store.dispatch({ type: 'item', kind: 'notice', text: n, tone: 'warn' });
  const open = options.openSession ?? (engineOpenSession as unknown as (o: OpenSessionOptions) => Promise<SessionHostApi>);
  let host: SessionHostApi;
  try {
    host = await open({
      workspace,
      home,
      env,
      profile: 'tui',
      interaction: store.interaction(),
      flags: {
        ...(options.provider ? { provider: options.provider } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.replay ? { replay: resolve(options.cwd ?? process.cwd(), options.replay) } : {}),
        ...(options.configPath ? { configPath: options.configPath } : {}),
        ...(options.auto ? { posture: 'full_access' as const } : {}),
      },
    });
  } catch (e) {
    stderr.write(describeFailure(e));
    return startFailureCode(e);
  }

  let exitCode: number = TUI_EXIT.ok;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const controller = new TuiController({
    host,
    store,
    workspace,
    ...(options.configPath ? { configPath: options.configPath } : {}),
    ...(run ? { runCommand: run } : {}),
    alwaysAllow:
      options.alwaysAllow ??
      (async (request) => {
        const r = alwaysRuleFor(request, host.getSnapshot().workspace || workspace);
        if (!r.ok) throw new Error(r.reason);
        const path = permissionsPathFor(configPath);
        await rememberPermissionRule(path, r.rule);
        return `${path}: allow ${r.rule.tool}${r.rule.command ? ` \`${r.rule.command}\`` : r.rule.path ? ` ${r.rule.path}` : ''} in ${r.rule.workspace}`;
      }),
    onExit: (code) => {
      exitCode = code;
      finish();
    },
  });

  // session_start fires (awaited) before the first frame; say so meanwhile (its hooks may be slow).
  stdout.write('starting the session (session_start hooks run first)\u2026');
  try {
    await host.start();
  } catch (e) {
    stdout.write('\n');
    stderr.write(describeFailure(e));
    await host.dispose().catch(() => {});
    return startFailureCode(e);
  } finally {
    stdout.write('\r\x1b[2K');
  }

  let socket: ControlSocket | null = null;
  const sessionId = host.getSnapshot().sessionId ?? host.sessionId;
  if (sessionId) {
    try {
      socket = await openControlSocket(controlSocketPath(home, sessionId), () => host.getSnapshot());
    } catch (e) {
      store.dispatch({ type: 'toast', level: 'warning', message: `control socket unavailable: ${e instanceof Error ? e.message : String(e)}`, now: Date.now() });
    }
  }

  // Hot reload: config.toml and the workspace's hooks.toml (same session id, new hook set).
  const watcher = watchFiles([configPath, join(workspace, '.codewhale', 'hooks.toml')], () => controller.reload());

  stdout.write(BRACKETED_PASTE_ON);
  const screen = new Screen({ host, store, controller, stdin, stdout, color: !env.NO_COLOR });
  screen.start();
  const onSignal = () => void controller.quit();
  process.on('SIGHUP', onSignal);
  if (options.prompt) void controller.submit(options.prompt);

  await finished;
  process.off('SIGHUP', onSignal);
  watcher.close();
  await socket?.close();
  store.flush();
  screen.stop();
  stdout.write(BRACKETED_PASTE_OFF);
  await host.dispose().catch(() => {});
  return exitCode;
}
