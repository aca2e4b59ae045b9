#!/usr/bin/env node
// Where a gate's time goes on a busy machine, from the kernel's scheduler trace. Not a
// benchmark (`pnpm bench` does not run it): a diagnostic that needs root and tracefs.
//
//   sudo node bench/sched-trace.mjs                  # 0 and 1 gate, 3 conversations each, under burners
//   TRACE_GATES=0,1,10 TRACE_CONVERSATIONS=5 TRACE_LOADED=0 node bench/sched-trace.mjs
//   TRACE_TIMELINE=1 TRACE_LOADED=0 node bench/sched-trace.mjs   # and one gap, event by event
//
// It runs `codewhale exec --hooks` against the fake OpenAI server (20 shell calls), as
// `pnpm bench hooks-e2e` does, with the kernel recording every wake-up, context switch, fork
// and exec. For each gap (the end of a tool-call reply to the next model request) it adds up,
// per role, how long each task ran and how long it was runnable but waiting for a CPU (woken
// or preempted, not yet running): the agent's main thread and its other threads, the process
// host, the hooks and shell commands it started, the benchmark itself (the fake model) and the
// CPU burners. For every hook and shell command it also gives the time from its fork to its
// `exec` of /bin/sh and how much of that it spent waiting: a new session (`setsid`) is a new
// scheduling group under sched_autogroup, and that wait is what one pays (see
// docs/design-notes.md, "Under load, a new session waits for a slice").
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer } from '@codewhale/engine/testing';
import { cpuBurners, execSandbox } from './util.mjs';

const TRACING = '/sys/kernel/tracing';
const root = new URL('..', import.meta.url).pathname;
const BIN = join(root, 'packages/cli/dist/bin.cjs');
const CALLS = 20;
const GATES = (process.env.TRACE_GATES ?? '0,1').split(',').map(Number);
const CONVERSATIONS = Number(process.env.TRACE_CONVERSATIONS) || 3;
const LOADED = process.env.TRACE_LOADED !== '0';
// TRACE_TIMELINE=1: also print, for the median gap of each gate count's last conversation,
// every scheduler event in it (who woke whom, who ran where), by role.
const TIMELINE = process.env.TRACE_TIMELINE === '1';
const EVENTS = ['sched_wakeup', 'sched_wakeup_new', 'sched_switch', 'sched_process_fork', 'sched_process_exec', 'sched_process_exit'];

try {
  accessSync(join(TRACING, 'trace'), constants.W_OK);
} catch {
  console.error(`sched-trace: ${TRACING} is not writable. Run it as root, with tracefs mounted (mount -t tracefs nodev ${TRACING}).`);
  process.exit(2);
}
const tracing = (file, value) => writeFileSync(join(TRACING, file), value);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)];
};
const nowNs = () => Number(process.hrtime.bigint());

/** One traced conversation: the trace's text, the agent's pid and the gaps' windows (CLOCK_MONOTONIC ns). */
async function conversation(gates) {
  const arrivals = [];
  const replyEnds = [];
  const turns = (_req, index) => {
    arrivals.push(nowNs());
    return index < CALLS ? { tool_calls: [{ id: `call_${index}`, name: 'bash', arguments: { command: 'true' } }] } : { text: 'done' };
  };
  const server = await startFakeOpenAIServer({ turns, onReplyEnd: (index) => (replyEnds[index] = nowNs()) });
  const { home, ws, hooks } = execSandbox(gates, 'cw-sched-trace-');
  writeFileSync(join(home, 'config.toml'), `provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\n\n${hooks}`);
  tracing('trace', '');
  tracing('tracing_on', '1');
  let agent = 0;
  const code = await new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'exec', '--auto', '--hooks', 'run true twenty times'], { cwd: ws, env: { PATH: process.env.PATH, HOME: home, CODEWHALE_HOME: home }, stdio: 'ignore' });
    agent = c.pid;
    c.on('close', resolve);
  });
  tracing('tracing_on', '0');
  await server.close();
  if (code !== 0) throw new Error(`exec exited with ${code}`);
  // The first gap also starts the process host: skipped, as in hooks-e2e.
  const windows = arrivals.slice(2).map((t, i) => [replyEnds[i + 1], t]);
  return { text: readFileSync(join(TRACING, 'trace'), 'utf8'), agent, windows };
}

// `comm-tid (tgid) [cpu] flags timestamp: event: fields`
const LINE = /^\s*(.+?)-(\d+)\s+\(\s*(\S+)\)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): (\w+): (.*)$/;

/** Per-role run and wait time in the gaps' windows, and each spawn's fork-to-exec wait. */
function analyse(text, { agent, bench, burners: burnerPids, windows }) {
  const tgid = new Map();
  const parent = new Map();
  const execs = new Map();
  const events = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const tid = Number(m[2]);
    if (/^\d+$/.test(m[3])) tgid.set(tid, Number(m[3]));
    const ts = Math.round(Number(m[5]) * 1e9);
    const event = m[6];
    const rest = m[7];
    events.push({ ts, event, tid, rest, cpu: Number(m[4]) });
    if (event === 'sched_process_fork') {
      const f = /pid=(\d+) child_comm=.*? child_pid=(\d+)/.exec(rest);
      if (f) parent.set(Number(f[2]), Number(f[1]));
    } else if (event === 'sched_process_exec') {
      const e = /filename=(\S+) pid=(\d+)/.exec(rest);
      if (e) execs.set(Number(e[2]), e[1]);
    }
  }
  const group = (t) => tgid.get(t) ?? t;
  const isProcess = (t) => group(t) === t;
  const hosts = new Set([...execs].filter(([p, f]) => f === process.execPath && group(parent.get(p) ?? 0) === agent).map(([p]) => p));
  const burnerSet = new Set(burnerPids);
  const roles = new Map();
  const role = (t) => {
    if (roles.has(t)) return roles.get(t);
    const g = group(t);
    let r = 'other';
    if (burnerSet.has(g)) r = 'CPU burners';
    else if (g === bench) r = 'benchmark (fake model)';
    else if (g === agent) r = t === g ? 'agent, main thread' : 'agent, other threads';
    else if (hosts.has(g)) r = 'process host';
    else {
      for (let x = g, n = 0; parent.has(x) && n < 16; n++) {
        x = group(parent.get(x));
        if (hosts.has(x)) { r = 'hooks and shell commands'; break; }
        if (x === agent) { r = 'agent, other processes'; break; }
      }
    }
    roles.set(t, r);
    return r;
  };
  // Runnable intervals: from a wake-up, or a preemption (switched out while runnable), to the
  // next switch in; running intervals: from a switch in to the next switch out.
  const waits = [];
  const runs = [];
  const runnableSince = new Map();
  const runningSince = new Map();
  const forkedAt = new Map();
  const execAt = new Map();
  for (const { ts, event, tid, rest } of events) {
    if (event === 'sched_wakeup' || event === 'sched_wakeup_new') {
      const p = Number(/ pid=(\d+)/.exec(rest)?.[1]);
      if (!runnableSince.has(p)) runnableSince.set(p, ts);
      if (event === 'sched_wakeup_new') forkedAt.set(p, ts);
    } else if (event === 'sched_switch') {
      const s = /prev_pid=(\d+) .*?prev_state=(\S+) ==> next_comm=.*? next_pid=(\d+)/.exec(rest);
      if (!s) continue;
      const prev = Number(s[1]);
      const next = Number(s[3]);
      if (runningSince.has(prev)) { runs.push([runningSince.get(prev), ts, prev]); runningSince.delete(prev); }
      if (s[2].startsWith('R') && !runnableSince.has(prev)) runnableSince.set(prev, ts);
      if (runnableSince.has(next)) { waits.push([runnableSince.get(next), ts, next]); runnableSince.delete(next); }
      runningSince.set(next, ts);
    } else if (event === 'sched_process_exec' && /^filename=\/bin\/sh /.test(rest)) {
      const p = Number(/ pid=(\d+)/.exec(rest)?.[1]);
      if (!execAt.has(p)) execAt.set(p, ts);
    }
  }
  const overlap = (a, b, [w0, w1]) => Math.max(0, Math.min(b, w1) - Math.max(a, w0));
  const perRole = new Map();
  const add = (r, key, ns) => {
    const x = perRole.get(r) ?? { run: 0, wait: 0 };
    x[key] += ns;
    perRole.set(r, x);
  };
  for (const w of windows) {
    for (const [a, b, t] of runs) { const o = overlap(a, b, w); if (o > 0) add(role(t), 'run', o); }
    for (const [a, b, t] of waits) { const o = overlap(a, b, w); if (o > 0) add(role(t), 'wait', o); }
  }
  // Each hook or shell command from its fork to its exec of /bin/sh (the span with its setsid).
  const spawns = [];
  for (const [p, at] of execAt) {
    const f = forkedAt.get(p);
    if (f === undefined || !isProcess(p) || role(p) !== 'hooks and shell commands') continue;
    const win = [f, at];
    let waited = 0;
    for (const [a, b, t] of waits) if (t === p) waited += overlap(a, b, win);
    spawns.push({ total: at - f, waited });
  }
  // Who started each /bin/sh: the host, or the agent itself (in process, before the host was up).
  let inProcess = 0;
  for (const [p] of execAt) if (role(p) === 'agent, other processes') inProcess++;
  const gaps = windows.map(([a, b]) => b - a);
  return { perRole, spawns, inProcess, gaps, timeline: TIMELINE ? timeline(events, role, windows, gaps) : [] };
}

/** The scheduler events of the median gap, one line each, times from the gap's start in ms. */
function timeline(events, role, windows, gaps) {
  const order = gaps.map((g, i) => [g, i]).sort((p, q) => p[0] - q[0]);
  const [w0, w1] = windows[order[Math.floor(order.length / 2)][1]];
  const short = (t) => `${role(t).replace('hooks and shell commands', 'child').replace('agent, main thread', 'agent').replace('benchmark (fake model)', 'model').replace('process host', 'host')}:${t}`;
  const lines = [`  timeline of the median gap (${((w1 - w0) / 1e6).toFixed(3)} ms):`];
  for (const { ts, event, tid, rest, cpu } of events) {
    if (ts < w0 || ts > w1) continue;
    const at = `+${((ts - w0) / 1e6).toFixed(3)}`.padStart(8);
    if (event === 'sched_wakeup' || event === 'sched_wakeup_new') {
      const p = Number(/ pid=(\d+)/.exec(rest)?.[1]);
      const to = Number(/target_cpu=(\d+)/.exec(rest)?.[1]);
      lines.push(`  ${at} [${cpu}] ${short(tid)} ${event === 'sched_wakeup_new' ? 'starts' : 'wakes'} ${short(p)} on cpu ${to}`);
    } else if (event === 'sched_switch') {
      const s = /prev_pid=(\d+) .*?prev_state=(\S+) ==> next_comm=.*? next_pid=(\d+)/.exec(rest);
      if (s) lines.push(`  ${at} [${cpu}] ${short(Number(s[1]))} (${s[2]}) -> ${short(Number(s[3]))}`);
    } else if (event === 'sched_process_exec') {
      lines.push(`  ${at} [${cpu}] ${short(tid)} exec ${/filename=(\S+)/.exec(rest)?.[1]}`);
    } else if (event === 'sched_process_fork') {
      lines.push(`  ${at} [${cpu}] ${short(tid)} forks ${/child_pid=(\d+)/.exec(rest)?.[1]}`);
    } else if (event === 'sched_process_exit') {
      lines.push(`  ${at} [${cpu}] ${short(tid)} exits`);
    }
  }
  return lines;
}

/** The tracing settings this tool changes, as they were (restored at the end). */
function savedSettings() {
  const read = (file) => readFileSync(join(TRACING, file), 'utf8').trim();
  const clock = /\[(\S+)\]/.exec(read('trace_clock'))?.[1] ?? 'local';
  const files = ['options/record-tgid', 'buffer_size_kb', ...EVENTS.map((e) => `events/sched/${e}/enable`)];
  const values = [['trace_clock', clock], ...files.map((f) => [f, read(f).split(' ')[0]])];
  return () => {
    for (const [file, value] of values) {
      try {
        tracing(file, value);
      } catch {
        // a setting the kernel will not take back (it was never changed then)
      }
    }
  };
}

async function main() {
  const restore = savedSettings();
  tracing('trace_clock', 'mono');
  tracing('options/record-tgid', '1');
  tracing('buffer_size_kb', '65536');
  for (const e of EVENTS) tracing(`events/sched/${e}/enable`, '1');
  const procs = LOADED ? cpuBurners() : [];
  try {
    await new Promise((r) => setTimeout(r, 300));
    const ms = (ns) => (ns / 1e6).toFixed(3);
    for (const gates of GATES) {
      const gaps = [];
      const spawns = [];
      const perRole = new Map();
      let n = 0;
      let inProcess = 0;
      let lastTimeline = [];
      for (let i = 0; i < CONVERSATIONS; i++) {
        const c = await conversation(gates);
        const a = analyse(c.text, { agent: c.agent, bench: process.pid, burners: procs.map((p) => p.pid), windows: c.windows });
        gaps.push(...a.gaps);
        spawns.push(...a.spawns);
        inProcess += a.inProcess;
        lastTimeline = a.timeline;
        n += c.windows.length;
        for (const [r, x] of a.perRole) {
          const y = perRole.get(r) ?? { run: 0, wait: 0 };
          y.run += x.run;
          y.wait += x.wait;
          perRole.set(r, y);
        }
      }
      console.log(`\n${gates} gate(s), ${LOADED ? 'under burners' : 'quiet'}: ${n} gaps, median ${ms(median(gaps))} ms (load average ${loadavg()[0].toFixed(2)})`);
      console.log('  per gap (mean)                 running ms   runnable, waiting ms');
      for (const [r, x] of [...perRole].sort((p, q) => q[1].run + q[1].wait - (p[1].run + p[1].wait))) {
        console.log(`  ${r.padEnd(30)} ${ms(x.run / n).padStart(10)}   ${ms(x.wait / n).padStart(10)}`);
      }
      if (spawns.length > 0) {
        console.log(`  hooks and shell commands, fork to exec of /bin/sh: median ${ms(median(spawns.map((s) => s.total)))} ms, of it waiting ${ms(median(spawns.map((s) => s.waited)))} ms (${spawns.length} spawns)`);
      }
      console.log(`  spawned in process by the agent (before its host was ready): ${inProcess}; by the host: ${spawns.length}`);
      for (const line of lastTimeline) console.log(line);
    }
  } finally {
    for (const p of procs) p.kill('SIGKILL');
    tracing('trace', '');
    restore();
  }
}

await main();
