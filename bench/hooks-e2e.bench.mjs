// hooks end to end: what a tool call costs in a real `codewhale exec --hooks --auto --replay`
// with 40 `true` shell calls, without hooks, with one `true` gate and with two, against the
// floor (an async `sh -c true` with three pipes from a small Node process of the same
// version), on every Node version there is (this one, and 22 and 24 from
// scripts/node-versions.mjs). A call's cost is (a run with 40 calls − a run with none) / 40;
// a gate's is the difference that one more gate makes. Rounds interleave every case, and each
// figure is the median over rounds. `BENCH_ROUNDS=N` (default 5), `BENCH_NODES=20,24` to choose.
// Where a C compiler is on PATH, each round also measures the lower bound of a hook's start
// (bench/spawn-floor.c: posix_spawn of `sh -c true` from C, no runtime at all), reported
// against the same floor: what a gate costs above it is Node's and Codewhale's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeVersions } from '../scripts/node-versions.mjs';
import { execSandbox, round } from './util.mjs';

const root = new URL('..', import.meta.url).pathname;
const BIN = join(root, 'packages/cli/dist/bin.cjs');
const CALLS = 40;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 5;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median ms per spawn of `sh -c true` (three pipes, awaited to `close`) from a small `node`. */
function floor(node, n = 40) {
  const script = `const { spawn } = require('node:child_process');
const one = () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] }); c.stdin.end(); c.stdout.resume(); c.stderr.resume(); c.on('close', r); });
(async () => { const xs = []; for (let i = 0; i < ${n} + 5; i++) { const t = performance.now(); await one(); if (i >= 5) xs.push(performance.now() - t); } xs.sort((a, b) => a - b); console.log(xs[xs.length >> 1]); })();`;
  return Number(spawnSync(node, ['-e', script], { encoding: 'utf8' }).stdout.trim());
}

/** The compiled bench/spawn-floor.c in `dir`, or null without a C compiler. */
function buildSpawnFloor(dir) {
  const exe = join(dir, 'spawn-floor');
  const cc = spawnSync('cc', ['-O2', '-o', exe, join(root, 'bench/spawn-floor.c')], { stdio: 'ignore' });
  return cc.status === 0 ? exe : null;
}

/** Median ms of one `sh -c true` started from C (see bench/spawn-floor.c). */
function spawnFloor(exe, n = 40) {
  return Number(spawnSync(exe, [String(n)], { encoding: 'utf8' }).stdout.trim());
}

/** A replay script of `calls` `true` shell calls and a final answer. */
function replayScript(dir, calls) {
  const file = join(dir, `replay-${calls}.jsonl`);
  const call = (i) => JSON.stringify({ tool_calls: [{ id: `c${i}`, name: 'bash', arguments: { command: 'true' } }] });
  writeFileSync(file, `${Array.from({ length: calls }, (_, i) => call(i)).join('\n')}${calls ? '\n' : ''}{"text":"done"}\n`);
  return file;
}

/** Wall ms of one `codewhale exec` with `gates` `true` gates replaying `script`. */
function execOnce(node, gates, script, cache) {
  const sb = execSandbox(gates, 'cw-bench-e2e-');
  writeFileSync(join(sb.home, 'config.toml'), sb.hooks);
  const env = { PATH: process.env.PATH, HOME: sb.home, CODEWHALE_HOME: sb.home, CODEWHALE_COMPILE_CACHE: cache, NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const c = spawn(node, [BIN, 'exec', '--auto', '--hooks', '--replay', script, 'go'], { cwd: sb.ws, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`exec exited ${code}: ${err.slice(-300)}`))));
  });
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-e2e-'));
  const wanted = process.env.BENCH_NODES?.split(',').map((s) => s.trim());
  const nodes = nodeVersions().filter(([major]) => !wanted || wanted.includes(major));
  const withCalls = replayScript(dir, CALLS);
  const none = replayScript(dir, 0);
  const rows = [];
  const load = loadavg()[0];
  const cFloor = buildSpawnFloor(dir);
  for (const [major, node] of nodes) {
    const cache = join(dir, `compile-cache-${major}`);
    const t = { floor: [], c: [], empty: [], g0: [], g1: [], g2: [] };
    await execOnce(node, 0, withCalls, cache); // warms the compile cache and the page cache
    for (let r = 0; r < ROUNDS; r++) {
      t.floor.push(floor(node));
      if (cFloor) t.c.push(spawnFloor(cFloor));
      t.empty.push(await execOnce(node, 0, none, cache));
      for (const g of [0, 1, 2]) t[`g${g}`].push(await execOnce(node, g, withCalls, cache));
    }
    // Per round, so a slow stretch of the machine hits every case of that round alike.
    const perCall = (k) => median(t[k].map((v, i) => (v - t.empty[i]) / CALLS));
    const gate = (a, b) => median(t[a].map((v, i) => (v - t[b][i]) / CALLS));
    const f = median(t.floor);
    const note = `Node ${major}; floor ${round(f)} ms; medians of ${ROUNDS} rounds; load ${round(load, 1)}`;
    rows.push({ name: `Node ${major}: floor, sh -c true from a small node`, value: round(f), unit: 'ms', note });
    if (cFloor) {
      const c = median(t.c);
      rows.push({ name: `Node ${major}: lower bound, sh -c true started from C`, value: round(c / f), unit: '× floor', note: `${round(c)} ms per start (posix_spawn, no runtime); ${note}` });
    }
    rows.push({ name: `Node ${major}: tool call without hooks`, value: round(perCall('g0') / f), unit: '× floor', note: `${round(perCall('g0'))} ms per call; goal ≤ 1.2×; ${note}` });
    rows.push({ name: `Node ${major}: one true gate`, value: round(gate('g1', 'g0') / f), unit: '× floor', note: `+${round(gate('g1', 'g0'))} ms per call; goal ≤ 0.6×; ${note}` });
    rows.push({ name: `Node ${major}: a further true gate`, value: round(gate('g2', 'g1') / f), unit: '× floor', note: `+${round(gate('g2', 'g1'))} ms per call; goal ≤ 0.6×; ${note}` });
  }
  return rows;
}
