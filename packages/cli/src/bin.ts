#!/usr/bin/env node
import { main } from './main.js';

// Detached hook and shell process groups do not get the terminal's Ctrl-C: end them with us.
// The supervisor is imported lazily so `--version` and `--help` stay fast; if it was never
// loaded, no process group exists.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    void import('@codewhale/hooks-supervisor')
      .then((m) => m.killAllProcessGroups())
      .finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// A reader that stops early (`codewhale hooks list | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`error: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
