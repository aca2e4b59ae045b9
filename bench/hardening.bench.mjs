// Hardening: linear-time glob matching and redaction, and memory under a 1 GiB hook flood.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileToolNameGlob } from '@codewhale/hooks-conditions';
import { sanitizeDenialReason } from '@codewhale/hooks-payloads';
import { round, time } from './util.mjs';

const BIN = new URL('../packages/cli/dist/bin.cjs', import.meta.url).pathname;

/** Peak RSS (VmHWM) of `codewhale hooks test` with one tool_call_before hook running `command`. */
function peakRss(command) {
  const root = mkdtempSync(join(tmpdir(), 'cw-bench-rss-'));
  mkdirSync(join(root, 'home'));
  mkdirSync(join(root, 'ws'));
  const script = join(root, 'hook.sh');
  writeFileSync(script, `#!/bin/sh\n${command}\n`);
  chmodSync(script, 0o755);
  writeFileSync(join(root, 'home', 'config.toml'), `[hooks]\n[[hooks.hooks]]\nname = "h"\nevent = "tool_call_before"\ncommand = "${script}"\ntimeout_secs = 300\n`);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}'], {
      cwd: join(root, 'ws'),
      env: { PATH: process.env.PATH, HOME: root, CODEWHALE_HOME: join(root, 'home') },
      stdio: 'ignore',
    });
    let peak = 0;
    const iv = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]));
      } catch {
        /* exited */
      }
    }, 10);
    child.on('close', () => {
      clearInterval(iv);
      resolve({ mib: peak / 1024, ms: performance.now() - t0 });
    });
  });
}

export async function run() {
  const rows = [];
  const name = 'a'.repeat(40);
  const plain = compileToolNameGlob('mcp__*');
  const hostile = compileToolNameGlob(`${'*a'.repeat(11)}*b`);
  const base = time(() => plain.test('mcp__github__create_issue'), { minMs: 200 });
  const bad = time(() => hostile.test(name), { minMs: 200 });
  rows.push({
    name: 'glob `*a`×11`*b` vs 40-char name',
    value: round(bad * 1e6, 1),
    unit: 'ns',
    note: `mcp__* in the same run: ${round(base * 1e6, 1)} ns (ratio ${round(bad / base, 1)}); the backtracking regex took 40 s`,
  });

  const perChar = [];
  for (const kb of [64, 256, 1024]) {
    // Adversarial for a naive scanner: many separators, credential words and token prefixes.
    const unit = 'password: token=x eyJa.eyJb. ghp_ -----BEGIN Cookie: a=b; "q ';
    const text = unit.repeat(Math.ceil((kb * 1024) / unit.length)).slice(0, kb * 1024);
    sanitizeDenialReason(text); // warm the JIT first
    const ms = time(() => sanitizeDenialReason(text), { minMs: 300 });
    perChar.push((ms * 1e6) / text.length);
    rows.push({ name: `redact a ${kb} KiB hostile reason`, value: round(ms, 3), unit: 'ms' });
  }
  rows.push({
    name: 'redaction cost per char, 64 KiB→1 MiB',
    value: `${round(perChar[0], 1)}→${round(perChar[2], 1)}`,
    unit: 'ns/char',
    note: 'flat = linear; real reasons are cut at 2,000 chars first',
  });

  const quiet = await peakRss('true');
  const flood = await peakRss("head -c 1073741824 /dev/zero | tr '\\0' '{'");
  rows.push({
    name: 'peak RSS, hooks test with a 1 GiB stdout flood',
    value: round(flood.mib, 1),
    unit: 'MiB',
    note: `with a \`true\` hook in the same run: ${round(quiet.mib, 1)} MiB; flood run ${round(flood.ms / 1000, 1)} s`,
  });
  return rows;
}
