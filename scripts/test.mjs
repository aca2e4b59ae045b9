#!/usr/bin/env node
// The whole suite, as CI runs it: build every package, type-check, check formatting and lint
// (Biome, biome.jsonc), run every test once on this machine's Node, then the unit and
// end-to-end tests again on Node 22 and 24 (installed from the npm registry by
// scripts/node-versions.mjs), and print one plain `N passed, N failed` line over all of it
// (vitest's own summaries are not what CI reads).
//
// On the other versions every package's tests run except those that load better-sqlite3 (the
// Runtime API's and every `serve*.test.ts` of the CLI): it is a native addon built for one
// Node ABI, this machine's. `--this-node` skips the other versions; `--no-build` skips the
// build; any other argument goes to vitest.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { arm64Node, nodeVersions } from './node-versions.mjs';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

const extra = process.argv.slice(2);
const own = !extra.includes('--this-node');
const vitestArgs = extra.filter((a) => a !== '--no-build' && a !== '--this-node');
let failedSetup = 0;
if (!extra.includes('--no-build')) {
  if (run('pnpm', ['turbo', 'run', 'build', 'typecheck', '--concurrency=2', '--output-logs=errors-only']) !== 0) failedSetup = 1;
}
// Formatting and lint: `pnpm exec biome check --write .` fixes what it can.
if (run(join(root, 'node_modules', '.bin', 'biome'), ['ci', '--reporter=summary', '.']) !== 0) {
  console.log('biome: formatting or lint findings (pnpm exec biome check --write . fixes most)');
  failedSetup += 1;
}
const outDir = join(root, '.test-results');
mkdirSync(outDir, { recursive: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** Every failed test, as `label: file › test`, printed again just above the last line (CI logs keep only their tail). */
const failures = [];

/** Run vitest with `node`; the counts from its JSON report (a file that failed to load counts as a failure). */
function suite(node, label, args) {
  const out = join(outDir, `vitest-${label}.json`);
  rmSync(out, { force: true });
  const status = spawnSync(node, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...args], { cwd: root, stdio: 'inherit', env }).status ?? 1;
  let passed = 0;
  let failed = 0;
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed = report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
    for (const file of report.testResults ?? []) {
      const name = (file.name ?? '').replace(root, '');
      if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
        failed += 1;
        failures.push(`${label}: ${name} did not load: ${(file.message ?? '').split('\n')[0]}`);
      }
      for (const t of file.assertionResults ?? []) if (t.status === 'failed') failures.push(`${label}: ${name} › ${t.fullName}`);
    }
  } else {
    failed += 1;
  }
  if (status !== 0 && failed === 0) failed = 1;
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  return { passed, failed };
}

// An arm64 Node for the test that loads codewhale-spawn's arm64 file under qemu-user, where
// the machine has qemu-aarch64 (.ci/run installs it).
if (spawnSync('sh', ['-c', 'command -v qemu-aarch64'], { stdio: 'ignore' }).status === 0) arm64Node();
const totals = { passed: 0, failed: failedSetup };
const add = (r) => {
  totals.passed += r.passed;
  totals.failed += r.failed;
};
add(suite(process.execPath, `node${process.versions.node.split('.')[0]}`, vitestArgs));
if (own) {
  const projects = ['hooks-payloads', 'hooks-conditions', 'hooks-config', 'hooks-supervisor', 'hooks', 'hooks-ai-sdk', 'engine', 'cli', 'tui'].flatMap((p) => ['--project', p]);
  for (const [major, node] of nodeVersions().slice(1)) add(suite(node, `node${major}`, [...projects, '--exclude', '**/serve*.test.ts', '--exclude', '**/node_modules/**', ...vitestArgs]));
}
if (failedSetup > 0) failures.unshift('set-up: the build, type check or lint failed (see above)');
for (const f of failures) console.log(`failed: ${f}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
