#!/usr/bin/env node
// Build step (Linux): compiles src/native/spawn.c, the process host's posix_spawn, to
// dist/native/codewhale-spawn-linux-<arch>.node against Node-API (see process-host-native.ts).
// The package works without it (the host then spawns through Node's handles), so a machine
// with no C compiler or without Node's headers only gets a note; a compile error fails the
// build. CODEWHALE_NATIVE_BUILD=off skips it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const skip = (why) => {
  console.log(`codewhale-spawn: not built (${why}); the process host will spawn through Node's handles`);
  process.exit(0);
};
if (process.platform !== 'linux') skip('not Linux');
if ((process.env.CODEWHALE_NATIVE_BUILD ?? '').trim().toLowerCase() === 'off') skip('CODEWHALE_NATIVE_BUILD=off');
const includes = [process.env.npm_config_nodedir && join(process.env.npm_config_nodedir, 'include', 'node'), join(dirname(process.execPath), '..', 'include', 'node')]
  .filter((dir) => dir && existsSync(join(dir, 'node_api.h')));
if (includes.length === 0) skip("Node's headers (include/node/node_api.h) not found next to this Node");
const out = join(pkg, 'dist', 'native', `codewhale-spawn-linux-${process.arch}.node`);
mkdirSync(dirname(out), { recursive: true });
const cc = process.env.CC || 'cc';
const r = spawnSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-fvisibility=hidden', '-shared', '-fPIC', '-I', includes[0], '-o', out, join(pkg, 'src', 'native', 'spawn.c')], { stdio: 'inherit' });
if (r.error && r.error.code === 'ENOENT') skip(`no C compiler (${cc})`);
if (r.status !== 0) {
  console.error(`codewhale-spawn: ${cc} failed (exit ${r.status ?? r.signal})`);
  process.exit(1);
}
const native = createRequire(import.meta.url)(out);
if (typeof native.spawn !== 'function' || typeof native.reap !== 'function') {
  console.error(`codewhale-spawn: ${out} does not export spawn and reap`);
  process.exit(1);
}
console.log(`codewhale-spawn: built ${out.slice(pkg.length + 1)}`);
