import { importExternal } from '../import-external.js';
import { Command, CommanderError } from 'commander';
import { CliError } from '../cli-error.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';

/** Options of the interactive UI (`codewhale [options] [PROMPT]`). */
export const INTERACTIVE_FLAGS = ['-w', '--workspace', '-c', '--config', '--provider', '--model', '--replay', '--auto'] as const;

/** Exit code when stdin/stdout is not a terminal (or TERM=dumb): the UI cannot run there. */
export const EXIT_NOT_A_TERMINAL = EXIT.usage;

type RunCli = (argv: readonly string[], io: Io) => Promise<number>;

function parse(argv: readonly string[]) {
  const cmd = new Command('codewhale')
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
    .option('-w, --workspace <dir>')
    .option('-c, --config <path>')
    .option('--provider <id>')
    .option('--model <id>')
    .option('--replay <file>')
    .option('--auto')
    .argument('[prompt...]');
  try {
    cmd.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) throw CliError.usage(e.message.replace(/^error:\s*/, ''), 'run `codewhale --help`');
    throw e;
  }
  const o = cmd.opts<{ workspace?: string; config?: string; provider?: string; model?: string; replay?: string; auto?: boolean }>();
  return { ...o, prompt: (cmd.args as string[]).join(' ') };
}

/**
 * `codewhale` with no subcommand: the interactive UI. `@codewhale/tui` (Ink, React) is loaded
 * only here, so `--version`, `--help` and the other commands never pay for it. `/hooks …` and
 * the trust prompt inside the UI run this cli's own commands in-process (`runCli`).
 */
export async function runInteractive(argv: readonly string[], io: Io, runCli: RunCli): Promise<number> {
  const o = parse(argv);
  const problem = !process.stdin.isTTY ? 'stdin is not a terminal' : !process.stdout.isTTY ? 'stdout is not a terminal' : io.env.TERM === 'dumb' ? 'TERM is "dumb"' : null;
  if (problem) {
    io.stderr(`error: the interactive UI needs a terminal (${problem})\nhint: use \`codewhale exec "<prompt>"\` in scripts and pipes\n`);
    return EXIT_NOT_A_TERMINAL;
  }
  const { runTui } = await importExternal<typeof import('@codewhale/tui')>('@codewhale/tui');
  return runTui({
    cwd: io.cwd,
    env: io.env,
    ...(o.workspace ? { workspace: o.workspace } : {}),
    ...(o.config ? { configPath: o.config } : {}),
    ...(o.provider ? { provider: o.provider } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(o.replay ? { replay: o.replay } : {}),
    ...(o.auto ? { auto: true } : {}),
    ...(o.prompt ? { prompt: o.prompt } : {}),
    runHooksCommand: async (args) => {
      let stdout = '';
      let stderr = '';
      const captured: Io = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: io.env, cwd: io.cwd, isTTY: false };
      const exitCode = await runCli(args, captured);
      return { exitCode, stdout, stderr };
    },
  });
}
