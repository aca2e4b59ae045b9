#!/usr/bin/env node
// `pnpm release`: build, run the whole suite, then publish every public package whose version
// is not on the registry yet — dependencies before dependents (`pnpm publish` rewrites
// `workspace:*` and applies `publishConfig`) — and tag the released versions (`changeset tag`).
// Versions come from `pnpm changeset version` beforehand (CI does that in its "Version
// packages" pull request). `pnpm release --dry-run` builds, tests and packs without publishing.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishOrder } from './publish-order.mjs';

const root = new URL('..', import.meta.url).pathname;
const dryRun = process.argv.includes('--dry-run');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
const run = (cmd, args, cwd = root, capture = false) => spawnSync(cmd, args, { cwd, env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
const fail = (message) => {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
};

if (run('pnpm', ['test']).status !== 0) fail('the suite failed; nothing was published');
// The supervisor (and the CLI, which copies them) ships codewhale-spawn for every Linux target:
// a release without one would leave its users on the slower child_process path.
if (run('node', ['packages/hooks-supervisor/scripts/build-native.mjs', '--all']).status !== 0) {
  fail('codewhale-spawn could not be built for every target (see packages/hooks-supervisor/scripts/build-native.mjs); nothing was published');
}
if (run('pnpm', ['--filter', '@codewhale/cli', 'build']).status !== 0) fail('the CLI could not be built again with every codewhale-spawn file');

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => ({ dir: join(root, 'packages', dir), manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
  .filter((p) => !p.manifest.private);
const byName = new Map(packages.map((p) => [p.manifest.name, p]));
let published = 0;
for (const name of publishOrder(packages.map((p) => p.manifest))) {
  const { dir, manifest } = byName.get(name);
  const spec = `${name}@${manifest.version}`;
  const view = run('npm', ['view', spec, 'version'], root, true);
  if (view.status === 0 && view.stdout.trim() === manifest.version) {
    console.log(`${spec} is already published`);
    continue;
  }
  console.log(`${dryRun ? 'would publish' : 'publishing'} ${spec}`);
  const args = ['publish', '--access', 'public', '--no-git-checks', ...(dryRun ? ['--dry-run'] : [])];
  if (run('pnpm', args, dir).status !== 0) fail(`publishing ${spec} failed; its dependents were not published`);
  published++;
}
if (!dryRun && published > 0 && run('pnpm', ['changeset', 'tag']).status !== 0) fail('tagging the release failed');
console.log(dryRun ? 'dry run: nothing was published' : `${published} package(s) published`);
