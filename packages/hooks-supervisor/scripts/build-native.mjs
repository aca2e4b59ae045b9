#!/usr/bin/env node
// Build step: compiles src/native/spawn.c (codewhale-spawn, see src/spawn/native.ts) against
// Node-API for each Linux target whose C compiler this machine has, into
// dist/native/codewhale-spawn.linux-<arch>-<libc>.node. Node-API is ABI-stable: one file per
// target serves Node 20, 22, 24 and later. The files ship in the package; nothing is compiled
// where the package is installed.
//
//   target            compiler (Debian package)
//   linux-x64-gnu     cc on x64, else x86_64-linux-gnu-gcc     (build-essential)
//   linux-x64-musl    musl-gcc                                 (musl-tools)
//   linux-arm64-gnu   cc on arm64, else aarch64-linux-gnu-gcc  (gcc-aarch64-linux-gnu)
//   linux-arm64-musl  aarch64-linux-gnu-gcc with musl's specs  (+ musl-dev:arm64)
//
// A target without its compiler is skipped with a note (the package then starts processes with
// child_process there); `--all` (the release) fails instead. A compile error always fails.
// The file for this machine is loaded once to check its exports. CODEWHALE_NATIVE_BUILD=off
// skips the step.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const all = process.argv.includes('--all');
if ((process.env.CODEWHALE_NATIVE_BUILD ?? '').trim().toLowerCase() === 'off') {
  console.log('codewhale-spawn: not built (CODEWHALE_NATIVE_BUILD=off)');
  process.exit(0);
}
const headers = [process.env.npm_config_nodedir && join(process.env.npm_config_nodedir, 'include', 'node'), join(dirname(process.execPath), '..', 'include', 'node')].find(
  (dir) => dir && existsSync(join(dir, 'node_api.h')),
);
if (!headers) {
  console.log("codewhale-spawn: not built (Node's headers, include/node/node_api.h, are not next to this Node)");
  process.exit(all ? 1 : 0);
}

const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const native = (arch) => process.platform === 'linux' && process.arch === arch && !musl();
function musl() {
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('/ld-musl-');
  } catch {
    return false;
  }
}
const targets = [
  { name: 'linux-x64-gnu', cc: native('x64') ? [process.env.CC || 'cc'] : ['x86_64-linux-gnu-gcc'] },
  { name: 'linux-x64-musl', cc: ['musl-gcc'] },
  { name: 'linux-arm64-gnu', cc: native('arm64') ? [process.env.CC || 'cc'] : ['aarch64-linux-gnu-gcc'] },
  { name: 'linux-arm64-musl', cc: ['aarch64-linux-gnu-gcc', '-specs', '/usr/lib/aarch64-linux-musl/musl-gcc.specs'], needs: '/usr/lib/aarch64-linux-musl/musl-gcc.specs' },
];

const outDir = join(pkg, 'dist', 'native');
mkdirSync(outDir, { recursive: true });
const built = [];
const missing = [];
for (const t of targets) {
  if (!onPath(t.cc[0]) || (t.needs && !existsSync(t.needs))) {
    missing.push(`${t.name} (no ${t.needs && onPath(t.cc[0]) ? t.needs : t.cc[0]})`);
    continue;
  }
  const out = join(outDir, `codewhale-spawn.${t.name}.node`);
  const args = [...t.cc.slice(1), '-O2', '-Wall', '-Wextra', '-Werror', '-fvisibility=hidden', '-shared', '-fPIC', '-I', headers, '-o', out, join(pkg, 'src', 'native', 'spawn.c')];
  const r = spawnSync(t.cc[0], args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`codewhale-spawn: ${t.cc[0]} failed for ${t.name} (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  built.push(t.name);
}
if (missing.length > 0) {
  console.log(`codewhale-spawn: not built for ${missing.join(', ')}`);
  if (all) process.exit(1);
}
const own = process.platform === 'linux' ? `linux-${process.arch}-${musl() ? 'musl' : 'gnu'}` : null;
if (own && built.includes(own)) {
  const path = join(outDir, `codewhale-spawn.${own}.node`);
  const m = createRequire(import.meta.url)(path);
  if (typeof m.spawnAsync !== 'function' || typeof m.reap !== 'function') {
    console.error(`codewhale-spawn: ${path} does not export spawnAsync and reap`);
    process.exit(1);
  }
}
console.log(`codewhale-spawn: built ${built.join(', ') || 'nothing'}`);
