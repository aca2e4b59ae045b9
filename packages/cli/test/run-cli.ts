/**
 * Run the BUILT `codewhale` binary as a user would: a real process, a temporary
 * `CODEWHALE_HOME`, a temporary workspace, a controlled environment. Build first
 * (`pnpm turbo run build --filter=@codewhale/cli`); the README's test command does.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';

export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.cjs');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Sandbox {
  /** `$CODEWHALE_HOME` (holds config.toml, audit.log). */
  readonly home: string;
  /** The canonical workspace directory. */
  readonly ws: string;
  /** A scratch directory for hook scripts and their output. */
  readonly dir: string;
  /** Write `<home>/config.toml`. */
  config(text: string): void;
  /** Write `<ws>/.codewhale/hooks.toml`. */
  projectHooks(text: string): void;
  /** Write an executable script (relative to the workspace when `inWorkspace`), return its path. */
  script(name: string, body: string, inWorkspace?: boolean): string;
  /** Run `codewhale …` in the workspace with this sandbox's environment. */
  run(args: readonly string[], options?: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number }): Promise<CliResult>;
}

export function sandbox(): Sandbox {
  if (!existsSync(BIN)) throw new Error(`build the CLI first: ${BIN} is missing (pnpm turbo run build --filter=@codewhale/cli)`);
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-cli-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const dir = join(root, 'scratch');
  for (const d of [home, ws, dir]) mkdirSync(d, { recursive: true });
  return {
    home,
    ws,
    dir,
    config: (text) => writeFileSync(join(home, 'config.toml'), text),
    projectHooks: (text) => {
      mkdirSync(join(ws, '.codewhale'), { recursive: true });
      writeFileSync(join(ws, '.codewhale', 'hooks.toml'), text);
    },
    script: (name, body, inWorkspace = false) => {
      const p = join(inWorkspace ? ws : dir, name);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, body.startsWith('#!') ? body : `#!/bin/sh\n${body}\n`);
      chmodSync(p, 0o755);
      return p;
    },
    run: (args, options = {}) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: options.cwd ?? ws,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, CODEWHALE_HOME: home, NO_COLOR: '1', ...options.env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
        child.stdin.end(options.input ?? '');
      }),
  };
}

/**
 * A real `codewhale exec --auto` in a fresh sandbox against the fake OpenAI server, which asks
 * for one `bash` call per command, in order, then ends the turn. Resolves to the commands'
 * outputs as the model saw them; rejects when the command line did not exit 0.
 */
export async function execShellCommands(commands: readonly string[], env: Record<string, string> = {}): Promise<string[]> {
  const turns: FakeTurn[] = [...commands.map((command, i) => ({ tool_calls: [{ id: `c${i + 1}`, name: 'bash', arguments: { command } }] })), { text: 'done' }];
  const server = await startFakeOpenAIServer({ turns });
  try {
    const sb = sandbox();
    sb.config(`provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\n`);
    const r = await sb.run(['exec', '--auto', 'run the commands'], { env });
    if (r.code !== 0) throw new Error(`codewhale exec exited ${r.code}: ${r.stderr}`);
    const last = server.requests[commands.length] as { messages: { role: string; content: string }[] };
    return last.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  } finally {
    await server.close();
  }
}
