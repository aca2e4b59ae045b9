import { installSignalExit } from './signal-exit.js';

/**
 * The command line itself, built as one CommonJS bundle (`dist/cli.cjs`) that `dist/bin.cjs`
 * loads through V8's code cache (see compile-cache.ts). Every subcommand's module runs only
 * when that subcommand does.
 */
const argv = process.argv.slice(2);

// Detached hook and shell process groups do not get the terminal's Ctrl-C: end them with us.
// The supervisor is imported lazily so `--version` and `--help` stay fast; if it was never
// loaded, no process group exists. Exit codes are 128 + n (SIGHUP 129, SIGINT 130, SIGTERM
// 143); an interactive surface registers its graceful exit with `onSignalExit`.
installSignalExit({
  cleanup: () => import('@codewhale/hooks-supervisor').then((m) => m.endAllProcessGroups()),
});

// A reader that stops early (`codewhale hooks list | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

void import('./main.js')
  .then(({ main }) => main(argv))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`error: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
