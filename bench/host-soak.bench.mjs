// The process host over a long session with output: a `true` hook in a host that has done
// SOAK_RUNS runs (a third of them printing 100 KB), against a fresh host, measured alternately
// in the same run. Two soaked hosts go through the same runs side by side: one as shipped (a
// full collection after 2 MiB of output, replaced when even that leaves it grown) and one with
// both turned off, so the rows show what keeping the host small is worth and what it costs.
import { readFileSync } from 'node:fs';
import { ProcessHost } from '@codewhale/hooks-supervisor';
import { processCpuMs, round } from './util.mjs';

const SOAK_RUNS = Number(process.env.CODEWHALE_BENCH_SOAK_RUNS ?? 2400);
const ROUNDS = 300;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
const input = JSON.stringify({ hook_event_name: 'tool_call_before', tool_name: 'bash', tool_input: { command: 'ls -la' } });
const request = (command) => ({
  mode: 'hook', file: '/bin/sh', args: ['-c', command], cwd: '/tmp', env, stdio: ['pipe', 'pipe', 'pipe'], input,
  stdoutMax: 65_536, stderrMax: 65_536, timeoutMs: 30_000, graceMs: 500, reapMs: 2_000, drainMs: 5_000, shutdownMs: 250,
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const anonMiB = (pid) => {
  try {
    return Number(/RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};


export async function run() {
  if (process.platform !== 'linux') return [{ name: 'host soak', value: 0, unit: '', note: 'Linux only (reads /proc)' }];
  const kept = new ProcessHost();
  const plain = new ProcessHost({ collectAfterBytes: Number.MAX_SAFE_INTEGER, growthLimitBytes: Number.MAX_SAFE_INTEGER });
  await Promise.all([kept.start(), plain.start()]);
  const big = 'yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 102400';
  // Host CPU of the soak: the last reading of every pid the shipped host had (a replaced one
  // exits right after it is swapped out, so a few milliseconds of it may be missed).
  const keptSeen = new Map([[kept.pid, -processCpuMs(kept.pid)]]);
  const keptLast = new Map();
  const plainAt = processCpuMs(plain.pid);
  const t0 = performance.now();
  for (let i = 0; i < SOAK_RUNS; i++) {
    const command = i % 3 === 0 ? big : 'true';
    await Promise.all([kept.run(request(command)).done, plain.run(request(command)).done]);
    const c = processCpuMs(kept.pid);
    if (!Number.isNaN(c)) keptLast.set(kept.pid, c);
    if (!keptSeen.has(kept.pid)) keptSeen.set(kept.pid, 0);
    // A gap now and then, as between tool calls: the host gets idle moments.
    if (i % 8 === 7) await sleep(20);
  }
  let keptCpu = 0;
  for (const [pid, start] of keptSeen) keptCpu += (keptLast.get(pid) ?? 0) + start;
  const plainCpu = processCpuMs(plain.pid) - plainAt;
  const soakSecs = (performance.now() - t0) / 1000;
  const fresh = new ProcessHost();
  await fresh.start();
  const hosts = [kept, plain, fresh];
  for (const h of hosts) for (let i = 0; i < 20; i++) await h.run(request('true')).done;
  const samples = hosts.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let j = 0; j < hosts.length; j++) {
      await sleep(2);
      const t = performance.now();
      await hosts[j].run(request('true')).done;
      samples[j].push(performance.now() - t);
    }
  }
  const [mk, mp, mf] = samples.map(median);
  const status = await kept.status();
  const rows = [
    { name: 'host soak: `true` hook in a fresh host (baseline)', value: round(mf), unit: 'ms', note: `anon ${round(anonMiB(fresh.pid), 1)} MiB` },
    {
      name: `host soak: after ${SOAK_RUNS} runs with output, as shipped`,
      value: round(mk / mf),
      unit: '× fresh',
      note: `${round(mk)} ms; anon ${round(anonMiB(kept.pid), 1)} MiB; replaced ${kept.replaced}×, ${status?.collections ?? '?'} collections in the current host; host CPU ${round(keptCpu / SOAK_RUNS, 2)} ms/run`,
    },
    {
      name: `host soak: after ${SOAK_RUNS} runs with output, no collections or replacement`,
      value: round(mp / mf),
      unit: '× fresh',
      note: `${round(mp)} ms; anon ${round(anonMiB(plain.pid), 1)} MiB; host CPU ${round(plainCpu / SOAK_RUNS, 2)} ms/run; soak took ${round(soakSecs, 1)} s`,
    },
  ];
  for (const h of hosts) h.close();
  return rows;
}
