import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { CliError } from './cli-error.js';
import { paint } from './color.js';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { processIo, type Io } from './io.js';
import { VERSION } from './version.js';

export type { CommonOptions } from './common-options.js';

function common(cmd: Command): Command {
  return cmd
    .option('-w, --workspace <dir>', 'the workspace (default: the current directory)')
    .option('-c, --config <path>', 'the config file (default: $CODEWHALE_CONFIG_PATH or $CODEWHALE_HOME/config.toml)');
}

const list = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function int(name: string) {
  return (v: string): number => {
    if (!/^-?\d+$/.test(v.trim())) throw CliError.usage(`${name} must be an integer, got \`${v}\``);
    return Number(v);
  };
}

/** The hook-writing guide, shipped in the package (`docs/` beside `dist/`). */
const GUIDE = fileURLToPath(new URL('../docs/hooks-guide.md', import.meta.url));

/** Exit codes of one command, for the end of its `--help`. */
const exits = (lines: string) => `\nExit codes: ${lines}.`;
const EXITS_READ = exits('0 done, 2 usage error, 3 a config file cannot be read or parsed');
const EXITS_WRITE = exits('0 done, 1 config.toml could not be changed, 2 usage error, 3 config.toml cannot be parsed (it was not changed)');

function build(io: Io, run: (p: Promise<number>) => void): Command {
  const colors = io.colors ?? { stdout: false, stderr: false };
  const program = new Command('codewhale')
    .description('Codewhale: a terminal AI coding agent whose lifecycle hooks let your own commands observe and steer it.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError(false)
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      outputError: () => {},
      // Help is styled below; commander strips the styles where colour is off.
      getOutHasColors: () => colors.stdout,
      getErrHasColors: () => colors.stderr,
    })
    .configureHelp({
      styleTitle: (s) => paint(true, 'bold', s),
      styleCommandText: (s) => paint(true, 'cyan', s),
      styleSubcommandText: (s) => paint(true, 'cyan', s),
      styleOptionText: (s) => paint(true, 'green', s),
    })
    .exitOverride()
    .usage('[--workspace DIR] [--config PATH] [--provider P] [--model M] [--replay FILE] [--auto] [PROMPT]\n       codewhale <command> [options]')
    .addHelpText(
      'after',
      `\nWith no command, codewhale opens the interactive UI (it needs a terminal; exit code 2 when stdin or stdout is not one).\n\n${EXIT_CODES_HELP}\n\nAlias: codew. Shell completion: codewhale completion bash|zsh|fish.\nHook guide: ${GUIDE}`,
    );

  common(
    program
      .command('exec')
      .description('Run one prompt headlessly through the agent (no hooks unless --hooks)')
      .argument('<prompt...>', 'the prompt')
      .option('--hooks', 'fire tool_call_before and shell_env hooks (global + trusted and approved project hooks)')
      .option('--auto', 'auto-approve tool calls (Full Access); a hook `ask` still denies')
      .option('--provider <id>', 'model route (deepseek, openai, ollama, vllm, or a [providers.<id>] table)')
      .option('--model <id>', 'model id')
      .option('--replay <file>', 'play a JSONL script of model turns instead of calling a model (offline)')
      .option('--max-turns <n>', 'model requests per run (default 50)', int('--max-turns'))
      .option('--allowed-tools <list>', 'comma-separated tools the agent may use', list)
      .option('--disallowed-tools <list>', 'comma-separated tools the agent may not use (wins over --allowed-tools)', list)
      .option('--mode <mode>', 'plan, work or operate (default work)')
      .addOption(new Option('--output-format <format>', 'text or stream-json').choices(['text', 'stream-json']).default('text'))
      .option('--json', 'print one JSON summary object at the end')
      .addHelpText('after', `\nExit codes: 0 completed, 1 failed, 2 usage error, 75 network/timeout after retries.`),
  ).action((prompt: string[], opts) => run(import('./commands/exec.js').then((m) => m.runExec(prompt.join(' '), opts, io))));

  const hooks = program
    .command('hooks')
    .description('Inspect, validate, dry-run, approve and import hooks')
    .addHelpText('after', `\nEach subcommand's --help lists its exit codes. Hook guide: ${GUIDE}`);
  common(
    hooks
      .command('list', { isDefault: true })
      .alias('ls')
      .description('List configured hooks by event, with effective timeouts, problems and project approval state (the default)')
      .option('--json', 'JSON (snake_case)')
      // `list` is the default subcommand, so a mistyped one arrives here as an argument.
      .allowExcessArguments(true)
      .addHelpText('after', EXITS_READ),
  ).action((opts, cmd: Command) =>
    run(
      cmd.args.length > 0
        ? import('@codewhale/hooks-config').then((m) => {
            const names = hooks.commands.map((c) => c.name());
            const typed = cmd.args[0]!;
            const s = m.suggest(typed, names);
            throw CliError.usage(
              `unknown command 'hooks ${typed.replace(/[^\x20-\x7e]/g, '?').slice(0, 48)}'${s ? `; did you mean \`hooks ${s}\`?` : ''}`,
              `\`codewhale hooks --help\` lists: ${names.join(', ')}`,
            );
          })
        : import('./commands/hooks-list.js').then((m) => m.runHooksList(opts, io)),
    ),
  );
  hooks
    .command('events')
    .description('List the 15 hook events')
    .option('--json', 'JSON')
    .addHelpText('after', exits('0 done, 2 usage error'))
    .action((opts) => run(import('./commands/hooks-events.js').then((m) => m.runHooksEvents(opts, io))));
  common(
    hooks
      .command('validate')
      .description('Check a config.toml or hooks.toml; exit 1 if any hook is rejected')
      .argument('[file]', 'the file (default: your config)')
      .option('--json', 'JSON')
      .addHelpText('after', '\nExit codes: 0 valid, 1 a hook or setting was rejected, 2 usage error, 3 unreadable file or TOML syntax error.'),
  ).action((file: string | undefined, opts) => run(import('./commands/hooks-validate.js').then((m) => m.runHooksValidate(file, opts, io))));
  common(
    hooks
      .command('test')
      .description('Dry-run an event through the real loader, matcher, runner, parser and fold')
      .argument('[event]', 'the event to simulate')
      .option('--tool <name>', 'tool name (tool_call_before, tool_call_after, on_error; shell_env defaults to exec_shell)')
      .option('--input <json>', 'tool input as a JSON object, or @file.json (tool events)')
      .option('--text <text>', 'message_submit: the message; subagent_*: the prompt or result; tool_call_after, on_error: the tool result')
      .option('--mode <mode>', 'plan, work or operate (default work; mode_change: the new mode, default plan)')
      .option('--exit-code <n>', 'the exit code the tool reported (tool_call_after, on_error); none when omitted', int('--exit-code'))
      .option('--error <text>', 'error text (on_error, session_error; turn_end, session_idle, subagent_complete: a failed turn)')
      .option('--reason <reason>', 'waiting_for_user: approval, user_input or goal_continuation (default approval)')
      .option('--replay <file>', 'replay the tool calls of a recorded session (replay JSONL or exec stream-json) through tool_call_before')
      .option('--show-values', 'shell_env: print values, not only key names')
      .option('--expect <result>', 'exit 1 unless the result is this: allow, deny, ask (tool_call_before, --replay); replaced, unchanged, blocked (message_submit)')
      .option('--json', 'JSON')
      .addHelpText('after', '\nExit codes: 0 the dry run completed (whatever the hooks decided), 1 --expect did not hold, 2 usage error, 3 config or recording unreadable.'),
  ).action((event: string | undefined, opts) => run(import('./commands/hooks-test.js').then((m) => m.runHooksTest(event, opts, io))));
  common(
    hooks
      .command('import')
      .description("Translate Claude Code's or Codex's hooks into claude-code protocol entries; print them, or append them with --write")
      .argument('[file...]', "settings files to read (default: the agent's user and project files)")
      .addOption(new Option('--from <agent>', 'the agent whose hooks to import').choices(['claude-code', 'codex']))
      .option('--write', 'append the new entries: user hooks to config.toml, project hooks to .codewhale/hooks.toml')
      .option('--json', 'JSON')
      .addHelpText(
        'after',
        `\nWithout FILEs: claude-code reads $CLAUDE_CONFIG_DIR (default ~/.claude)/settings.json, then .claude/settings.json and .claude/settings.local.json in the workspace; codex reads $CODEX_HOME (default ~/.codex)/config.toml and hooks.json, then .codex/config.toml and .codex/hooks.json in the workspace. A FILE inside the workspace is project hooks, any other is yours.\nPrints the TOML it would append and every hook it cannot carry over, with the reason. Importing twice appends nothing new. Project hooks still need \`codewhale trust\` and \`codewhale hooks approve\` before they run.${exits(
          '0 done (also when some hooks could not be carried over), 1 a file could not be written, 2 usage error, 3 a settings file is missing or malformed, or a target file cannot be parsed (nothing was written)',
        )}`,
      ),
  ).action((files: string[], opts) => run(import('./commands/hooks-import.js').then((m) => m.runHooksImport(files, opts, io))));
  common(
    hooks.command('review').description("Show the workspace's project hooks, their full commands, the file digest and pinned scripts").option('--json', 'JSON').addHelpText('after', EXITS_READ),
  ).action((opts) => run(import('./commands/hooks-review.js').then((m) => m.runHooksReview(opts, io))));
  common(
    hooks
      .command('approve')
      .description('Approve the project hooks file with this digest (full, or a unique prefix of ≥ 12 hex)')
      .argument('<digest>', 'SHA-256 of hooks.toml')
      .addHelpText(
        'after',
        exits(
          '0 approved, 1 the digest does not match the file as it is now, there is no project file, or config.toml could not be written, 2 a malformed or too short digest (or another usage error), 3 config.toml cannot be parsed (it was not changed)',
        ),
      ),
  ).action((digest: string, opts) => run(import('./commands/hooks-review.js').then((m) => m.runHooksApprove(digest, opts, io))));
  common(hooks.command('revoke').description("Revoke the workspace's project hooks approval (takes effect at once)").addHelpText('after', EXITS_WRITE)).action((opts) =>
    run(import('./commands/hooks-review.js').then((m) => m.runHooksRevoke(opts, io))),
  );
  common(
    program
      .command('serve')
      .description('Start the Runtime API (HTTP + server-sent events) for desktop and web clients')
      .option('--host <host>', 'bind address (default 127.0.0.1)')
      .option('--port <port>', 'port (default 7878; 0 picks a free one)', int('--port'))
      .option(
        '--auth-token-file <path>',
        "read the token clients must send from a file ('-' reads standard input) (else $CODEWHALE_RUNTIME_TOKEN, $DEEPSEEK_RUNTIME_TOKEN, or a generated one in $CODEWHALE_HOME/runtime-token)",
      )
      .option('--auth-token <token>', 'the token on the command line: other processes see it in ps; prefer --auth-token-file')
      .option('--insecure-no-auth', 'accept requests without a token (loopback binds only)')
      .option('--cors <origin>', 'let a web page from this origin call the API (repeatable; default: none)', (v: string, prev: string[] = []) => [...prev, v])
      .option('--allow-host <name>', 'another name clients may reach the server by, e.g. a reverse proxy (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
      .option('--open', 'print a one-time login link for the web client (served at /)')
      .addHelpText('after', `\nThe first line of output is the URL; the web client is served at it.${exits('0 stopped by SIGTERM/SIGINT, 1 could not start, 2 usage error')}`),
  ).action((opts) => run(import('./commands/serve.js').then((m) => m.runServe(opts, io))));
  common(program.command('trust').description('Trust the workspace (needed, with approval, for project hooks)').addHelpText('after', EXITS_WRITE)).action((opts) =>
    run(import('./commands/trust.js').then((m) => m.runTrust(true, opts, io))),
  );
  common(program.command('untrust').description('Stop trusting the workspace').addHelpText('after', EXITS_WRITE)).action((opts) =>
    run(import('./commands/trust.js').then((m) => m.runTrust(false, opts, io))),
  );
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `\nInstall:\n  bash  codewhale completion bash > ~/.local/share/bash-completion/completions/codewhale\n  zsh   codewhale completion zsh > "\${fpath[1]}/_codewhale"\n  fish  codewhale completion fish > ~/.config/fish/completions/codewhale.fish\n${exits('0 printed, 2 unknown shell')}`,
    )
    .action((shell: string) => run(import('./commands/completion.js').then((m) => m.runCompletion(shell, program, io))));
  return program;
}

/** Print a user error as one line (plus a hint), never a stack trace. */
export function reportError(e: unknown, io: Io): number {
  const color = io.colors?.stderr ?? false;
  const error = paint(color, ['bold', 'red'], 'error:');
  if (CliError.isInstance(e)) {
    io.stderr(`${error} ${e.message}\n`);
    if (e.hint) io.stderr(`${paint(color, 'dim', 'hint:')} ${e.hint}\n`);
    return e.exitCode;
  }
  const message = e instanceof Error ? e.message : String(e);
  io.stderr(`${error} internal error: ${message.split('\n')[0]}\n`);
  if (io.env.CODEWHALE_DEBUG && e instanceof Error && e.stack) io.stderr(`${e.stack}\n`);
  return EXIT.failure;
}

const INTERACTIVE_FLAG = /^(-w|--workspace|-c|--config|--provider|--model|--replay|--auto)(=|$)/;
const SUBCOMMANDS = new Set(['exec', 'hooks', 'trust', 'untrust', 'help']);

/**
 * Whether `argv` starts the interactive UI: no arguments, a UI option first (`--auto`,
 * `--replay F`, …), `--` then a prompt, or a first word that is no command and has a space
 * (`codewhale "fix the build"`).
 */
export function isInteractive(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined || first === '--' || INTERACTIVE_FLAG.test(first)) return true;
  return !first.startsWith('-') && !SUBCOMMANDS.has(first) && /\s/.test(first);
}

/** Run the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let pending: Promise<number> | null = null;
  const program = build(io, (p) => {
    pending = p;
  });
  try {
    if (isInteractive(argv)) return await import('./commands/interactive.js').then((m) => m.runInteractive(argv, io, main));
    await program.parseAsync([...argv], { from: 'user' });
    return pending ? await pending : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
      const [first = '', ...rest] = e.message.replace(/^error:\s*/, '').split('\n');
      // commander's "(Did you mean exec?)" line, in the CLI's own words.
      const suggestion = /\(Did you mean (?:one of )?(.+)\?\)/.exec(rest.join(' '))?.[1];
      const message = suggestion
        ? `${first}; did you mean ${suggestion
            .split(', ')
            .map((x) => `\`${x}\``)
            .join(' or ')}?`
        : first;
      const color = io.colors?.stderr ?? false;
      io.stderr(`${paint(color, ['bold', 'red'], 'error:')} ${message}\n${paint(color, 'dim', 'hint:')} run \`codewhale --help\` (or \`codewhale <command> --help\`)\n`);
      return EXIT.usage;
    }
    return reportError(e, io);
  }
}
