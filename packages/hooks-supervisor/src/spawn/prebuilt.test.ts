/**
 * The prebuilt codewhale-spawn files the package ships (scripts/build-native.mjs): each is an
 * ELF shared object for its CPU, linked against its C library, and loads where it can be
 * loaded — this machine's in this Node, the arm64 glibc one in a real arm64 Node under
 * qemu-user where the machine has it (CI installs it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeModulePath } from './native.js';

const dir = join(import.meta.dirname, '..', '..', 'dist', 'native');
const TARGETS = { 'linux-x64-gnu': 62, 'linux-x64-musl': 62, 'linux-arm64-gnu': 183, 'linux-arm64-musl': 183 } as const;
const built = Object.keys(TARGETS).filter((t) => existsSync(join(dir, `codewhale-spawn.${t}.node`))) as (keyof typeof TARGETS)[];

describe.runIf(process.platform === 'linux' && built.length > 0)('the prebuilt codewhale-spawn files', () => {
  it("include this machine's, and it is the one this process loads", () => {
    expect(nativeModulePath()).toBe(join(dir, `codewhale-spawn.linux-${process.arch}-gnu.node`));
  });

  it.each(built)('%s: a shared object for its CPU and its C library', (target) => {
    const elf = readFileSync(join(dir, `codewhale-spawn.${target}.node`));
    expect(elf.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(elf[4]).toBe(2); // 64-bit
    expect(elf.readUInt16LE(16)).toBe(3); // ET_DYN
    expect(elf.readUInt16LE(18)).toBe(TARGETS[target]); // e_machine
    const text = elf.toString('latin1');
    if (target.endsWith('-gnu')) expect(text).toContain('libc.so.6');
    else {
      // musl's loader provides libc itself; no glibc symbol version may be asked for.
      expect(text).not.toContain('libc.so.6');
      expect(text).not.toMatch(/GLIBC_\d/);
    }
    expect(text).toContain('napi_register_module_v1');
  });

  const qemu = spawnSync('sh', ['-c', 'command -v qemu-aarch64'], { encoding: 'utf8' }).stdout.trim();
  const arm64 = join(import.meta.dirname, '..', '..', '..', '..', '.cache', 'node', 'arm64-20', 'package', 'bin', 'node');
  it.runIf(qemu !== '' && existsSync(arm64) && built.includes('linux-arm64-gnu') && existsSync('/lib/ld-linux-aarch64.so.1'))(
    'linux-arm64-gnu: loads in an arm64 Node and starts a child (under qemu-user)',
    () => {
      const check = `const m = require(process.argv[1]);
const fs = require('node:fs');
m.spawnAsync('/bin/sh', ['/bin/sh', '-c', 'echo from-arm64-parent; exit 7'].join('\\0'), 'PATH=/usr/bin:/bin', '/', -1, 1).then((r) => {
let out = ''; const buf = Buffer.alloc(256);
for (;;) { let n = 0; try { n = fs.readSync(r[1], buf); } catch (e) { if (e.code === 'EAGAIN') continue; throw e; } if (n === 0) break; out += buf.toString('utf8', 0, n); }
let st; do { st = m.reap(r[0]); } while (st === -1);
console.log(process.arch, out.trim(), (st >> 8) & 0xff);
});`;
      const r = spawnSync(qemu, ['-L', '/', arm64, '-e', check, join(dir, 'codewhale-spawn.linux-arm64-gnu.node')], { encoding: 'utf8', timeout: 120_000 });
      expect(r.stdout.trim(), r.stderr).toBe('arm64 from-arm64-parent 7');
    },
    150_000,
  );
});
