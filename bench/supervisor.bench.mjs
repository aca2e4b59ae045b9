// hooks-supervisor: the cost of running hooks as real processes, against a bare spawn.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookRuntime, overflowProcessHost, ProcessHost, runHook, setSpawnMode, sharedProcessHost } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
import { processCpuMs, round, timeAsync } from './util.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cw-bench-'));

const hook = (event, command) => hookDefinition(event, command, { name: 'h0' });
const set = (hooks) => hookSet(hooks);

function bareSpawn() {
  return new Promise((resolve, reject) => {
    const c = spawn('sh', ['-c', 'true'], { stdio: 'ignore' });
    c.on('error', reject);
    c.on('exit', resolve);
  });
}

/**
 * Before and after codewhale-spawn in one run: two hosts in this process, one spawning with
 * posix_spawn through it (the default where it was built) and one through Node's handles
 * (CODEWHALE_HOST_SPAWN=handles), alternating `true` hooks with a stdin document, after 3 ms
 * idle (as a gate after a model reply) and back to back; and each host's CPU per run.
 */
async function spawnerAB(rows) {
  const saved = process.env.CODEWHALE_HOST_SPAWN;
  const hosts = [];
  for (const setting of [undefined, 'handles']) {
    if (setting === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
    else process.env.CODEWHALE_HOST_SPAWN = setting;
    const host = new ProcessHost();
    await host.start();
    hosts.push(host);
  }
  if (saved === undefined) delete process.env.CODEWHALE_HOST_SPAWN;
  else process.env.CODEWHALE_HOST_SPAWN = saved;
  const [a, b] = hosts;
  if (a.spawner !== 'native') {
    rows.push({ name: 'a `true` hook in a host: codewhale-spawn against the handles', value: 0, unit: 'ms', note: `not measured: this host spawns through ${a.spawner} (codewhale-spawn is built on Linux with a C compiler and Node's headers)` });
    for (const h of hosts) h.close();
    return;
  }
  const q = { mode: 'hook', file: '/bin/sh', args: ['-c', 'true'], cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'], input: '{"event":"tool_call_before"}', stdoutMax: 65_536, stderrMax: 65_536, timeoutMs: 10_000, graceMs: 500, reapMs: 2_000, drainMs: 1_000, shutdownMs: 250 };
  for (let i = 0; i < 30; i++) for (const h of hosts) await h.run(q).done;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const RUNS = 150;
  for (const idle of [3, 0]) {
    const times = [[], []];
    const cpu = [0, 0];
    for (let i = 0; i < RUNS; i++) {
      // Alternating which goes first, so neither always follows the other.
      for (const k of i % 2 ? [0, 1] : [1, 0]) {
        if (idle) await sleep(idle);
        const c0 = processCpuMs(hosts[k].pid);
        const t0 = performance.now();
        await hosts[k].run(q).done;
        times[k].push(performance.now() - t0);
        const c1 = processCpuMs(hosts[k].pid);
        if (!Number.isNaN(c0) && !Number.isNaN(c1)) cpu[k] += c1 - c0;
      }
    }
    const [na, ha] = times.map(median);
    const when = idle ? `after ${idle} ms idle` : 'back to back';
    rows.push({ name: `a \`true\` hook in a host, ${when}: codewhale-spawn`, value: round(na), unit: 'ms', note: `through the handles ${round(ha)} ms in the same run (${round(na / ha)}×); medians of ${RUNS} each, alternating; host CPU per run ${round(cpu[0] / RUNS)} against ${round(cpu[1] / RUNS)} ms` });
  }
  for (const h of hosts) h.close();
}

export async function run() {
  const rows = [];
  if (process.platform === 'linux') await spawnerAB(rows);
  const bare = await timeAsync(bareSpawn, { runs: 40 });
  rows.push({ name: 'bare spawn of sh -c true (baseline)', value: round(bare.median), unit: 'ms', note: `p90 ${round(bare.p90)} ms` });
  for (const mode of ['in-process', 'host']) {
    setSpawnMode(mode);
    const runtime = new HookRuntime({ hooks: set([hook('tool_call_before', 'true')]), workspace: dir });
    const gate = await timeAsync(() => runtime.toolCallBefore({ name: 'bash', callId: 'c', input: { command: 'ls' }, mode: 'work', model: 'm' }), { runs: 40 });
    rows.push({ name: `tool_call_before with one \`true\` hook (${mode})`, value: round(gate.median), unit: 'ms', note: `p90 ${round(gate.p90)} ms; ratio to bare spawn ${round(gate.median / bare.median)}×` });
    await runtime.close();
    // Ten gates: through the host they are one chain (each starts when the one before it
    // ended, with no round trip through this process in between).
    const ten = new HookRuntime({ hooks: set(Array.from({ length: 10 }, (_, i) => hookDefinition('tool_call_before', 'true', { name: `g${i}` }))), workspace: dir });
    const gates = await timeAsync(() => ten.toolCallBefore({ name: 'bash', callId: 'c', input: { command: 'ls' }, mode: 'work', model: 'm' }), { runs: 20 });
    const further = (gates.median - gate.median) / 9;
    rows.push({ name: `tool_call_before, each further of ten \`true\` hooks (${mode})`, value: round(further), unit: 'ms', note: `ten in ${round(gates.median)} ms; ratio to bare spawn ${round(further / bare.median)}×` });
    await ten.close();
  }
  setSpawnMode(null);

  // Observer throughput: events/s through the 2 persistent workers (one trivial hook per event).
  const obs = new HookRuntime({ hooks: set([hook('turn_end', 'true')]), workspace: dir });
  // Warm-up: the steady state, with both process hosts up (the second starts when runs overlap).
  for (let i = 0; i < 4; i++) obs.fire('turn_end', {}, '{}');
  await obs.idle();
  await overflowProcessHost().start();
  const n = 300;
  const started = performance.now();
  let sent = 0;
  while (sent < n) {
    const r = obs.fire('turn_end', {}, '{}');
    if (r.ok) sent++;
    else await new Promise((res) => setTimeout(res, 2));
  }
  await obs.idle();
  const secs = (performance.now() - started) / 1000;
  // Baseline: the same number of bare `sh -c true` spawns, two in flight at a time.
  const t0 = performance.now();
  await Promise.all([0, 1].map(async () => {
    for (let i = 0; i < n / 2; i++) await bareSpawn();
  }));
  const bareRate = n / ((performance.now() - t0) / 1000);
  rows.push({ name: 'observer throughput (2 workers, 1 hook/event)', value: round(n / secs, 1), unit: 'events/s', note: `${n} events in ${round(secs)} s; bare spawns 2 in flight: ${round(bareRate, 1)}/s (ratio ${round(n / secs / bareRate)})` });
  await obs.close();

  // Peak RSS while a hook floods stdout with 1 GiB.
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t = performance.now();
  const o = await runHook({ hook: { index: 0, name: 'flood', label: 'flood', event: 'tool_call_before', source: 'global', continueOnError: true, background: false }, command: 'head -c 1073741824 /dev/zero', cwd: dir, env: { PATH: process.env.PATH }, stdin: null, timeoutSecs: 120 });
  clearInterval(sampler);
  rows.push({ name: 'peak RSS growth while a hook floods 1 GiB', value: round((peak - base) / 1024 / 1024, 1), unit: 'MiB', note: `captured ${o.stdout.length} chars, drained in ${round((performance.now() - t) / 1000)} s` });
  sharedProcessHost().close();
  overflowProcessHost().close();
  return rows;
}
