// hooks-supervisor: a `true` hook through runHook, started each way (posix_spawn through
// codewhale-spawn, and child_process), from this process carrying an agent-sized heap, against
// the floor (a bare async `sh -c true` with three pipes from a small Node process), alternating
// in one run; ten gates of one event through HookRuntime; peak RSS while a hook floods 1 GiB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookRuntime, runHook, spawnerInUse } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
import { round } from './util.mjs';

const RUNS = 60;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hook = { index: 0, name: 'h', label: 'h', event: 'tool_call_before', source: 'global', continueOnError: true, background: false };

function floor(n = RUNS) {
  const script = `const { spawn } = require('node:child_process');
const one = () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] }); c.stdin.end(); c.stdout.resume(); c.stderr.resume(); c.on('close', r); });
(async () => { const xs = []; for (let i = 0; i < ${n} + 5; i++) { const t = performance.now(); await one(); if (i >= 5) xs.push(performance.now() - t); } xs.sort((a, b) => a - b); console.log(xs[xs.length >> 1]); })();`;
  return Number(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout.trim());
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-sup-'));
  // An agent's heap: a fork copies the page tables of all of it; posix_spawn copies none.
  const heap = Array.from({ length: 150 }, () => Buffer.alloc(1 << 20, 1));
  const spec = { hook, command: 'true', cwd: dir, env: { PATH: process.env.PATH }, stdin: '{"event":"tool_call_before"}', timeoutSecs: 10 };
  const kinds = spawnerInUse() === 'native' ? ['native', 'child_process'] : ['child_process'];
  const times = Object.fromEntries(kinds.map((k) => [k, []]));
  const setting = process.env.CODEWHALE_SPAWN;
  for (let i = 0; i < RUNS + 5; i++) {
    for (const k of kinds) {
      if (k === 'child_process') process.env.CODEWHALE_SPAWN = 'child_process';
      else delete process.env.CODEWHALE_SPAWN;
      const t = performance.now();
      await runHook(spec);
      if (i >= 5) times[k].push(performance.now() - t);
    }
  }
  if (setting === undefined) delete process.env.CODEWHALE_SPAWN;
  else process.env.CODEWHALE_SPAWN = setting;
  const f = floor();
  const rows = [{ name: 'floor: sh -c true from a small node', value: round(f), unit: 'ms', note: `median of ${RUNS}` }];
  for (const k of kinds) {
    const m = median(times[k]);
    rows.push({ name: `a true hook through runHook, ${k}`, value: round(m / f), unit: '× floor', note: `${round(m)} ms, median of ${RUNS}, alternating, 150 MB heap; Node ${process.versions.node}` });
  }

  const gates = new HookRuntime({
    hooks: hookSet(Array.from({ length: 10 }, (_, i) => hookDefinition('tool_call_before', 'true', { name: `g${i}` }))),
    workspace: dir,
    parentEnv: { PATH: process.env.PATH },
  });
  const ten = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    await gates.toolCallBefore({ name: 'bash', callId: `c${i}`, input: { command: 'ls' } });
    if (i >= 3) ten.push(performance.now() - t);
  }
  await gates.close();
  rows.push({ name: 'ten true gates of one tool call', value: round(median(ten) / 10 / f), unit: '× floor per gate', note: `${round(median(ten))} ms for ten (${spawnerInUse()})` });

  const before = process.memoryUsage().rss;
  let peak = before;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  await runHook({ ...spec, command: 'head -c 1073741824 /dev/zero', timeoutSecs: 120 });
  clearInterval(watch);
  rows.push({ name: 'RSS growth while a hook writes 1 GiB to stdout', value: round((peak - before) / 2 ** 20, 1), unit: 'MiB', note: '64 KiB kept, the rest drained' });
  heap.length = 0;
  return rows;
}
