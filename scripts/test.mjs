#!/usr/bin/env node
// The whole suite, as CI runs it: build every package, type-check, run every test once, then
// print one plain `N passed, N failed` line (vitest's own summary is not what CI reads).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

const extra = process.argv.slice(2);
let failedSetup = 0;
if (!extra.includes('--no-build')) {
  if (run('pnpm', ['turbo', 'run', 'build', 'typecheck', '--concurrency=2', '--output-logs=errors-only']) !== 0) failedSetup = 1;
}
const outDir = join(root, '.test-results');
mkdirSync(outDir, { recursive: true });
const out = join(outDir, 'vitest.json');
rmSync(out, { force: true });
const vitestArgs = extra.filter((a) => a !== '--no-build');
const status = run('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...vitestArgs]);

let passed = 0;
let failed = failedSetup;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  // A test file that failed to load has no tests in it; count it as a failure.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
  }
} else {
  failed += 1;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
