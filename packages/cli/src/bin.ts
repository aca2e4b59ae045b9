#!/usr/bin/env node
import { join } from 'node:path';
import { loadBundle } from './compile-cache.js';
import { registerImportExternal } from './import-external.js';

declare const __CODEWHALE_VERSION__: string;

// `--version` answers before anything else loads: it is the start-up floor. This file is
// CommonJS, so not even the ES module loader starts for it.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__CODEWHALE_VERSION__}\n`);
  process.exit(0);
}

// The bundle's own `import()` of the TUI and the server goes through this one (see import-external.ts).
registerImportExternal((specifier) => import(specifier));
const outcome = loadBundle(join(__dirname, 'cli.cjs'));
if (process.env['CODEWHALE_DEBUG_STARTUP'] === '1') process.stderr.write(`codewhale: compile cache ${outcome}\n`);
