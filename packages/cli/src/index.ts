/**
 * @codewhale/cli — the `codewhale` command line. The binary is `dist/bin.cjs`; `main` runs the
 * same CLI in-process (argv without node and script → exit code).
 */
export { main, reportError } from './main.js';
export { CliError } from './cli-error.js';
export { EXIT, EXIT_CODES_HELP, type ExitCode } from './exit-codes.js';
export { processIo, type Io } from './io.js';
export { VERSION } from './version.js';
export { onSignalExit, signalExitCode, EXIT_SIGNALS, SIGNAL_GRACE_MS, type SignalExitHandler, type SignalExitRegistration } from './signal-exit.js';
