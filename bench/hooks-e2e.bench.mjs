// hooks end to end: `codewhale exec --hooks` against the fake OpenAI server, 20 shell calls per
// conversation, for 0 hooks / 1 `true` gate / 10 gates, next to the async spawn floor of a
// small Node process measured in the same run; the longest event-loop stall while a hook or
// a shell command starts; observer throughput against bare spawns with 2 in flight (in paired
// rounds, the median of the per-round ratios). Every
// figure is taken for both spawn modes (the process host and the in-process fallback,
// CODEWHALE_PROCESS_HOST=off), once quiet and once while a CPU burner this benchmark starts
// (one busy process per core) loads the machine. `BENCH_QUICK=1` runs fewer conversations;
// `BENCH_LOADS=quiet` (or `loaded`) and `BENCH_MODES=host` (or `in-process`) run a part;
// `BENCH_CONVERSATIONS=N` runs N conversations per configuration (default 6);
// `BENCH_BURNER=same-session` puts the burners in this benchmark's session (see burners());
// `BENCH_ENV=tiny` runs everything with three variables instead of a desktop terminal's
// environment (see terminalEnv() in util.mjs), as this benchmark did before. Gate costs are
// shown two ways: the difference of the medians over all gaps, and the median over rounds of
// the difference within a round (0, 1 and 10 gates back to back), which cancels slow drifts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { startFakeOpenAIServer } from '@codewhale/engine/testing';
import { bashTool } from '@codewhale/engine/tools';
import { HOST_SCHED_SLICE_NS, HookRuntime, hostLaunch, overflowProcessHost, ProcessHost, runHook, setSpawnMode, sharedProcessHost, spawnMode } from '@codewhale/hooks-supervisor';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
import { cpuBurners, execSandbox, mainThreadSlice, preemptions, round, setMainThreadSlice, terminalEnv } from './util.mjs';

const root = new URL('..', import.meta.url).pathname;
const BIN = join(root, 'packages/cli/dist/bin.cjs');
const CALLS = 20;
const QUICK = process.env.BENCH_QUICK === '1';
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS) || (QUICK ? 2 : 6); // 6 × 19 gaps ≈ the issue's 120
const MODES = (process.env.BENCH_MODES ?? 'in-process,host').split(',');
const LOADS = (process.env.BENCH_LOADS ?? 'quiet,loaded').split(',');
// The floor's companion with the gaps' rhythm: each spawn after this long idle.
const IDLE_MS = 3;
const BURNER = process.env.BENCH_BURNER === 'same-session' ? 'same-session' : 'own-session';
// What every process this benchmark measures inherits: the agent, its hooks and shell
// commands, and the small Node processes that take the floors (and their spawns) alike.
const TINY_ENV = process.env.BENCH_ENV === 'tiny';
const BASE_ENV = Object.freeze(TINY_ENV ? { PATH: process.env.PATH } : terminalEnv({ PATH: process.env.PATH }));

// The agent's main thread: `codewhale` gives it the process host's short scheduler slice
// (setAgentSlice in the supervisor) when its host starts through Perl. This process stands
// for that agent in the stall and observer rows, so it asks for the same slice there in host
// mode, and keeps the kernel's default everywhere else: for the in-process rows (no host, so
// no slice in `codewhale` either), and while it takes the floors (their small Node processes
// inherit its slice) and serves the conversations (the fake model stands for a remote
// server). `BENCH_AGENT_SLICE=off` keeps the default in host mode too.
const AGENT_SLICE = process.env.BENCH_AGENT_SLICE !== 'off';

/** The note's words for this process's main-thread slice. */
const sliceNote = () => {
  const ns = mainThreadSlice();
  return ns === null ? '' : `; this process's main-thread slice ${round(ns / 1e6, 2)} ms`;
};

/** The note's words for how often the main thread was preempted during a row's longest stall. */
const preempted = (row) => (row.preemptedAtMax === null ? '' : row.preemptedAtMax === 0 ? ' (every thread), never preempted' : ` (every thread), the main thread preempted ${row.preemptedAtMax}×`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)];
};

/**
 * The floor: an async `sh -c true` spawn with three pipes from a small Node process. Returns
 * the `n` timed spawns (after 5 warm-ups); the bench takes them between conversations, so the
 * floor sees the same load as the gaps it is compared with. `detached` adds `setsid()`, as
 * every hook and shell command needs (its own session and process group): on a kernel with
 * `sched_autogroup` a new session is a new scheduling group, which a loaded machine makes wait
 * (see docs/design-notes.md).
 */
function spawnFloor(n = 20, detached = false, idleMs = 0, sliced = false) {
  const script = `const { spawn } = require('node:child_process');
const one = () => new Promise((r) => { const c = spawn('/bin/sh', ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'], detached: ${detached} }); c.stdin.end(); c.stdout.resume(); c.stderr.resume(); c.on('close', r); });
(async () => { const xs = []; for (let i = 0; i < ${n} + 5; i++) { ${idleMs > 0 ? `await new Promise((r) => setTimeout(r, ${idleMs}));` : ''} const t = performance.now(); await one(); if (i >= 5) xs.push(performance.now() - t); } console.log(JSON.stringify(xs)); })();`;
  return inSmallNode(script, sliced);
}

/**
 * Run `script` in a fresh small Node process; resolves to the JSON value it prints. `sliced`:
 * started the way the process host is (through Perl, asking for its short scheduler slice),
 * where the host would be; otherwise (and where it would not) plainly.
 */
function inSmallNode(script, sliced = false) {
  return new Promise((resolve, reject) => {
    const launch = hostLaunch(process.execPath, script, sliced);
    const c = spawn(launch.file, launch.args, { stdio: ['ignore', 'pipe', 'inherit'], env: BASE_ENV });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('error', reject);
    c.on('close', () => resolve(JSON.parse(out.trim())));
  });
}

/**
 * One busy process per core. By default each runs in a session of its own, as the load of any
 * other program on a real machine does (another terminal, a build, or a command of the agent's
 * own shell tool, which gets its own session): on a kernel with `sched_autogroup` a session is
 * a scheduling group, and a burner inside the benchmark's own group is a load no real agent
 * sees. `BENCH_BURNER=same-session` keeps the burners in the benchmark's session instead (the
 * earlier model, the worst case for every spawn that starts a session; see design notes).
 */
function burners() {
  const procs = cpuBurners(BURNER !== 'same-session');
  return () => {
    for (const p of procs) p.kill('SIGKILL');
  };
}

/**
 * One `codewhale exec --hooks` conversation. Returns the issue's gaps, from the end of a
 * tool-call reply (its last byte written by the fake server) to the next model request, and
 * the request-to-request intervals, which also hold the server's own streaming of the reply.
 */
async function conversation(gates, mode) {
  const arrivals = [];
  const replyEnds = [];
  const turns = (_req, index) => {
    arrivals.push(performance.now());
    return index < CALLS ? { tool_calls: [{ id: `call_${index}`, name: 'bash', arguments: { command: 'true' } }] } : { text: 'done' };
  };
  const server = await startFakeOpenAIServer({ turns, onReplyEnd: (index) => (replyEnds[index] = performance.now()) });
  const sb = execSandbox(gates);
  writeFileSync(join(sb.home, 'config.toml'), `provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\n\n${sb.hooks}`);
  // The run's choice of spawner (CODEWHALE_HOST_SPAWN) reaches the conversations' host too, as
  // it reaches the hosts this process starts for the stall and observer rows.
  const spawnSetting = process.env.CODEWHALE_HOST_SPAWN === undefined ? {} : { CODEWHALE_HOST_SPAWN: process.env.CODEWHALE_HOST_SPAWN };
  const env = { ...BASE_ENV, HOME: sb.home, CODEWHALE_HOME: sb.home, ...spawnSetting, ...(mode === 'in-process' ? { CODEWHALE_PROCESS_HOST: 'off' } : {}) };
  const code = await new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'exec', '--auto', '--hooks', 'run true twenty times'], { cwd: sb.ws, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('close', (status) => resolve(status === 0 ? 0 : `${status}: ${err.slice(-300)}`));
  });
  await server.close();
  if (code !== 0) throw new Error(`exec failed (${code})`);
  if (arrivals.length !== CALLS + 1) throw new Error(`expected ${CALLS + 1} model requests, got ${arrivals.length}`);
  // The first gap also pays for starting the process host (once per process): skip it.
  return {
    gaps: arrivals.slice(2).map((t, i) => t - replyEnds[i + 1]),
    intervals: arrivals.slice(2).map((t, i) => t - arrivals[i + 1]),
  };
}

const hookIdentity = { index: 0, name: 'h', label: 'h', event: 'tool_call_before', source: 'global', continueOnError: true, background: false };

/**
 * Starts watching garbage collections (of the ~100 MB heap, to tell one apart from the hook
 * machinery). The returned function stops and resolves to their [start, end] spans.
 */
function watchCollections() {
  const gcs = [];
  const observer = new PerformanceObserver((list) => gcs.push(...list.getEntries().map((e) => [e.startTime, e.startTime + e.duration])));
  observer.observe({ entryTypes: ['gc'] });
  return async () => {
    await new Promise((r) => setImmediate(r));
    observer.disconnect();
    return gcs;
  };
}

/**
 * Runs `start` and times its synchronous part: wall time (which includes being preempted by
 * other processes), CPU time (user + system of every thread, a collection included), when it
 * began, and how often the main thread was preempted meanwhile. Returns `start`'s value too.
 */
function timedStart(start) {
  const before = preemptions();
  const c = process.cpuUsage();
  const at = performance.now();
  const value = start();
  const wall = performance.now() - at;
  const u = process.cpuUsage(c);
  const pre = before === null ? null : preemptions() - before;
  return { value, sample: { wall, cpu: (u.user + u.system) / 1000, at, pre } };
}

/** The longest of `samples` after the first `skip` (warm-ups), what happened during it, and the medians. */
function longestStart(samples, gcs, skip = 0) {
  const xs = samples.slice(skip);
  const i = xs.reduce((m, x, k) => (x.wall > xs[m].wall ? k : m), 0);
  const l = xs[i];
  return {
    max: l.wall,
    median: median(xs.map((x) => x.wall)),
    cpuMedian: median(xs.map((x) => x.cpu)),
    cpuAtMax: l.cpu,
    gcAtMax: gcs.some(([a, b]) => a < l.at + l.wall && b > l.at),
    preemptedAtMax: l.pre,
    atMax: skip + i,
    n: samples.length,
  };
}

/**
 * The longest time the caller's thread is blocked while a hook or a shell command starts: the
 * synchronous part of `runHook` / the shell tool's `execute` (the spawn, for the in-process
 * path). The bench process carries ~100 MB of live heap, the size of a running agent, because
 * the cost of an in-process spawn grows with the spawning process's memory.
 */
async function stalls(dir) {
  const hook = [];
  const shell = [];
  const collections = watchCollections();
  for (let i = 0; i < 30; i++) {
    const h = timedStart(() => runHook({ hook: hookIdentity, command: 'true', cwd: dir, env: BASE_ENV, stdin: '{}', timeoutSecs: 10 }));
    hook.push(h.sample);
    await h.value;
    const ctx = { workspace: dir, callId: 'c', toolName: 'bash', signal: new AbortController().signal, hooks: null, wantsReceipt: false, parentEnv: BASE_ENV, services: {} };
    const q = timedStart(() => bashTool.execute({ command: 'true' }, ctx));
    shell.push(q.sample);
    await q.value;
  }
  const gcs = await collections();
  return { hook: longestStart(hook, gcs, 3), shell: longestStart(shell, gcs, 3) };
}

/**
 * The caller's stall while a host starts (the synchronous part of `start()`), in this
 * agent-sized process: for a host started by a host that is up (the second host for
 * overlapping runs, a replacement, a restart while the other host is up) and, in the same
 * run, for one spawned from this process (the first host of a process). Each is started and
 * closed `n` times, in turns.
 */
async function hostStarts(n = QUICK ? 4 : 10) {
  const primary = sharedProcessHost();
  await primary.start();
  const byHost = new ProcessHost({ starter: () => primary });
  const direct = new ProcessHost();
  const xs = { byHost: [], direct: [] };
  const collections = watchCollections();
  for (let i = 0; i < n; i++) {
    for (const [name, host] of [['byHost', byHost], ['direct', direct]]) {
      const { value: ready, sample } = timedStart(() => host.start());
      xs[name].push(sample);
      await ready;
      if (name === 'byHost' && !host.byHost) throw new Error('the host was not started by a host');
      host.close();
      while (host.pid !== undefined) await new Promise((r) => setTimeout(r, 5));
    }
  }
  const gcs = await collections();
  return { byHost: longestStart(xs.byHost, gcs), direct: longestStart(xs.direct, gcs), n };
}

/**
 * Observer throughput in rounds: each round measures the baseline (two bare spawns in flight
 * from a small Node process) and then the observers, back to back, so a change in the shared
 * machine's load between rounds affects both sides of that round's ratio alike. `agentSlice`:
 * this process's scheduler slice (ns) while the observers run, 0 for the kernel's default; the
 * baseline always runs with the default. Returns the median of the rates and of the per-round
 * ratios.
 */
async function observerRounds(dir, agentSlice = 0) {
  const rounds = QUICK ? 3 : 9;
  const rates = [];
  const bases = [];
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    // The baseline's small Node would inherit this process's slice: it gets the default.
    if (agentSlice > 0) setMainThreadSlice(0);
    const base = await bareRateSmall();
    if (agentSlice > 0) setMainThreadSlice(agentSlice);
    const rate = await observerThroughput(dir);
    bases.push(base);
    rates.push(rate);
    ratios.push(rate / base);
  }
  return { rate: median(rates), base: median(bases), ratio: median(ratios), ratios, rounds };
}

async function observerThroughput(dir) {
  // The environment as the binary hands it to its sessions: a frozen copy (see cli/src/io.ts).
  const obs = new HookRuntime({ hooks: hookSet([hookDefinition('turn_end', 'true', { name: 'o' })]), workspace: dir, parentEnv: BASE_ENV });
  const n = QUICK ? 100 : 200;
  // Warm-up: four events, two in flight, so the steady state is measured (both process hosts
  // up: the second starts the first time runs overlap; see the supervisor's README).
  for (let i = 0; i < 4; i++) obs.fire('turn_end', {}, '{}');
  await obs.idle();
  if (spawnMode() === 'host') await overflowProcessHost().start();
  const started = performance.now();
  let sent = 0;
  while (sent < n) {
    if (obs.fire('turn_end', {}, '{}').ok) sent++;
    else await new Promise((res) => setTimeout(res, 1));
  }
  await obs.idle();
  await obs.close();
  return n / ((performance.now() - started) / 1000);
}

/** The same rate from a small Node process (the floor's spawner): the goal's baseline. */
function bareRateSmall() {
  const n = QUICK ? 100 : 200;
  const script = `const { spawn } = require('node:child_process');
const one = () => new Promise((r) => spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore' }).on('exit', r));
(async () => { const t0 = performance.now(); await Promise.all([0, 1].map(async () => { for (let i = 0; i < ${n} / 2; i++) await one(); })); console.log(${n} / ((performance.now() - t0) / 1000)); })();`;
  return inSmallNode(script);
}

/** Bare spawns, 2 in flight, from this process (it holds the agent-sized ballast). */
async function bareRate() {
  const n = QUICK ? 100 : 200;
  const one = () => new Promise((r) => spawn('/bin/sh', ['-c', 'true'], { stdio: 'ignore', env: BASE_ENV }).on('exit', r));
  const t0 = performance.now();
  await Promise.all([0, 1].map(async () => {
    for (let i = 0; i < n / 2; i++) await one();
  }));
  return n / ((performance.now() - t0) / 1000);
}

// For ad-hoc A/B scripts that time one part in a loop of their own.
export { bareRateSmall, observerRounds, observerThroughput };

export async function run() {
  const rows = [];
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-bench-stall-')));
  // ~100 MB of live heap, as in a running agent (see stalls()).
  const ballast = Array.from({ length: 100 }, () => new Float64Array(128 * 1024).fill(1));
  for (const load of LOADS) {
    const stop = load === 'loaded' ? burners() : () => {};
    setMainThreadSlice(0);
    try {
      await new Promise((r) => setTimeout(r, load === 'loaded' ? 300 : 0));
      const floors = [...(await spawnFloor())];
      const sessionFloors = [...(await spawnFloor(20, true))];
      const idleFloors = [...(await spawnFloor(20, false, IDLE_MS))];
      const sessionIdleFloors = [...(await spawnFloor(20, true, IDLE_MS))];
      const slicedFloors = [...(await spawnFloor(20, false, 0, true))];
      const bare = await bareRate();
      // Conversations interleave modes and gate counts, so a change in the machine's load
      // during the run affects every configuration alike; floor samples are taken between them.
      const gaps = Object.fromEntries(MODES.map((m) => [m, { 0: [], 1: [], 10: [] }]));
      // Per round (one conversation of each gate count, back to back): the paired estimate.
      const paired = Object.fromEntries(MODES.map((m) => [m, { one: [], further: [] }]));
      const intervals = Object.fromEntries(MODES.map((m) => [m, { 0: [], 1: [], 10: [] }]));
      for (let i = 0; i < CONVERSATIONS; i++) {
        for (const mode of MODES) {
          const perRound = {};
          for (const gates of [0, 1, 10]) {
            floors.push(...(await spawnFloor(10)));
            sessionFloors.push(...(await spawnFloor(5, true)));
            idleFloors.push(...(await spawnFloor(5, false, IDLE_MS)));
            sessionIdleFloors.push(...(await spawnFloor(5, true, IDLE_MS)));
            slicedFloors.push(...(await spawnFloor(5, false, 0, true)));
            const c = await conversation(gates, mode);
            gaps[mode][gates].push(...c.gaps);
            perRound[gates] = median(c.gaps);
            intervals[mode][gates].push(...c.intervals);
          }
          paired[mode].one.push(perRound[1] - perRound[0]);
          paired[mode].further.push((perRound[10] - perRound[1]) / 9);
        }
      }
      const floor = median(floors);
      const la = loadavg()[0];
      const sessionFloor = median(sessionFloors);
      let autogroup = 'n/a';
      try {
        autogroup = readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1' ? 'on' : 'off';
      } catch {
        // not Linux, or not readable
      }
      rows.push({ name: `[${load}] spawn floor: async sh -c true, 3 pipes, small node`, value: round(floor), unit: 'ms', note: `median of ${floors.length} taken between the conversations; load average ${round(la)}${load === 'loaded' ? `; burners ${BURNER === 'same-session' ? 'in this benchmark\'s session' : 'each in its own session'}` : ''}` });
      rows.push({ name: `[${load}] the same spawn after ${IDLE_MS} ms idle (as after a model reply)`, value: round(median(idleFloors)), unit: 'ms', note: `${round(median(idleFloors) / floor)}× the floor; median of ${idleFloors.length}; the cost of waking idle CPUs` });
      const slicedFloor = median(slicedFloors);
      const slicing = hostLaunch(process.execPath, '', true).sliced;
      rows.push({ name: `[${load}] the same spawn from a node with the host's scheduler slice`, value: round(slicedFloor), unit: 'ms', note: slicing ? `${round(slicedFloor / floor)}× the floor; median of ${slicedFloors.length}; what the slice alone buys a bare spawn (the goals are against the plain floor)` : 'no slice asked for here (not Linux x64/arm64, no Perl, or CODEWHALE_HOST_SLICE=off): the plain floor again' });
      rows.push({ name: `[${load}] the same spawn in its own session (setsid, as hooks)`, value: round(sessionFloor), unit: 'ms', note: `${round(sessionFloor / floor)}× the floor; median of ${sessionFloors.length}; sched_autogroup ${autogroup}` });
      const sessionIdleFloor = median(sessionIdleFloors);
      rows.push({ name: `[${load}] the same spawn in its own session after ${IDLE_MS} ms idle (a first gate's hook)`, value: round(sessionIdleFloor), unit: 'ms', note: `${round(sessionIdleFloor / floor)}× the floor; median of ${sessionIdleFloors.length}; a first gate's hook is such a spawn (see docs/design-notes.md, "Under load, a new session waits for a slice")` });
      for (const mode of MODES) {
        setSpawnMode(mode);
        const g = { 0: median(gaps[mode][0]), 1: median(gaps[mode][1]), 10: median(gaps[mode][10]) };
        const one = g[1] - g[0];
        const further = (g[10] - g[1]) / 9;
        const between = median(intervals[mode][0]);
        rows.push({ name: `[${load}/${mode}] exec: per-call gap, 0 hooks`, value: round(g[0]), unit: 'ms', note: `÷ floor ${round(g[0] / floor)}× (goal ≤ 3); ${gaps[mode][0].length} gaps; request to request ${round(between)} ms (${round(between / floor)}×)` });
        const pOne = median(paired[mode].one);
        const pFurther = median(paired[mode].further);
        rows.push({ name: `[${load}/${mode}] exec: per-call gap, 1 true gate`, value: round(g[1]), unit: 'ms', note: `+${round(one)} ms; added ÷ floor ${round(one / floor)}× (goal ≤ 1.3); paired per round ${round(pOne / floor)}×; ÷ session floor ${round(one / sessionFloor)}×; ÷ the floor after ${IDLE_MS} ms idle (a gate follows a model reply) ${round(one / median(idleFloors))}×; ÷ the same in its own session ${round(one / sessionIdleFloor)}×; ÷ the sliced floor ${round(one / slicedFloor)}×` });
        rows.push({ name: `[${load}/${mode}] exec: per-call gap, 10 true gates`, value: round(g[10]), unit: 'ms', note: `+${round(further)} ms per further gate; ÷ floor ${round(further / floor)}× (goal ≤ 1.2); paired per round ${round(pFurther / floor)}×; ÷ session floor ${round(further / sessionFloor)}×; ÷ the sliced floor ${round(further / slicedFloor)}×` });
        if (mode === 'host') await sharedProcessHost().start();
        const agentSlice = mode === 'host' && AGENT_SLICE && slicing ? HOST_SCHED_SLICE_NS : 0;
        setMainThreadSlice(agentSlice);
        const s = await stalls(dir);
        rows.push({ name: `[${load}/${mode}] longest stall: hook start`, value: round(s.hook.max, 3), unit: 'ms', note: `median ${round(s.hook.median, 3)} ms, CPU median ${round(s.hook.cpuMedian, 3)} ms, CPU of the longest (start ${s.hook.atMax + 1} of ${s.hook.n}) ${round(s.hook.cpuAtMax, 3)} ms${preempted(s.hook)}${s.hook.gcAtMax ? ', a garbage collection during it' : ''}${sliceNote()} (goal ≤ 2 ms)` });
        rows.push({ name: `[${load}/${mode}] longest stall: shell command start`, value: round(s.shell.max, 3), unit: 'ms', note: `median ${round(s.shell.median, 3)} ms, CPU median ${round(s.shell.cpuMedian, 3)} ms, CPU of the longest (start ${s.shell.atMax + 1} of ${s.shell.n}) ${round(s.shell.cpuAtMax, 3)} ms${preempted(s.shell)}${s.shell.gcAtMax ? ', a garbage collection during it' : ''}${sliceNote()} (goal ≤ 2 ms)` });
        if (mode === 'host') {
          const h = await hostStarts();
          rows.push({ name: `[${load}/host] longest stall: a host starts, started by a host`, value: round(h.byHost.max, 3), unit: 'ms', note: `median ${round(h.byHost.median, 3)} ms of ${h.n}, CPU median ${round(h.byHost.cpuMedian, 3)} ms, CPU of the longest (start ${h.byHost.atMax + 1}) ${round(h.byHost.cpuAtMax, 3)} ms${preempted(h.byHost)}${h.byHost.gcAtMax ? ', a garbage collection during it' : ''}; spawned from this process instead (the first host of a process) ${round(h.direct.median, 3)} ms, longest ${round(h.direct.max, 3)} ms, in the same run${sliceNote()} (goal ≤ 2 ms)` });
        }
        const o = await observerRounds(dir, agentSlice);
        rows.push({ name: `[${load}/${mode}] observer throughput`, value: round(o.rate, 1), unit: 'events/s', note: `bare spawns 2 in flight from a small node ${round(o.base, 1)}/s: ratio ${round(o.ratio)}, the median of ${o.rounds} paired rounds (${o.ratios.map((r) => round(r)).join(', ')}; goal ≥ 0.95); from this agent-sized process ${round(bare, 1)}/s: ${round(o.rate / bare)}${sliceNote()}` });
      }
    } finally {
      stop();
      setSpawnMode(null);
      setMainThreadSlice(0);
    }
  }
  ballast.length = 0;
  sharedProcessHost().close();
  overflowProcessHost().close();
  return rows;
}
