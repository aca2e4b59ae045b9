// tui: the interactive UI driven in-process with the REAL session host (replay provider, real hook
// processes) into an in-memory terminal (a TTY-like stdout of 100×30). Measured, never asserted:
// - time to first frame (runTui called → the status line is written), against a bare Ink app's first frame;
// - keystroke-to-frame latency (a key written to stdin → the next frame), against a bare Ink echo app;
// - the longest event-loop stall while a slow (1 s) message_submit hook runs, and while a 10 MB
//   tool output and a 10 MB streamed answer go through the transcript (goal: none over 16 ms);
// - streaming (tui-stream.mjs): a 20 KB answer from a real HTTP model server in 7-character
//   deltas: terminal bytes per byte of answer, CPU per KB against the engine alone, keystroke →
//   frame while streaming, Esc → "turn interrupted" on screen, clear sequences per answer
//   (medians of CW_TUI_STREAM_RUNS runs, default 3). With
//   CW_TUI_BASE=<another build's packages/tui/dist/index.js> the same rows are measured for that
//   build too, in the same run (before/after).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { round } from './util.mjs';
import { engineOnly, httpFloor, streamScenario } from './tui-stream.mjs';

delete process.env.CI; // Ink renders only the last frame under CI
const root = new URL('..', import.meta.url).pathname;
const tui = await import(join(root, 'packages/tui/dist/index.js'));
const { createRequire } = await import('node:module');
const req = createRequire(join(root, 'packages/tui/package.json'));
const ink = await import(req.resolve('ink'));
const React = (await import(req.resolve('react'))).default;

function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode() {}, ref() {}, unref() {} });
  stdin.setEncoding('utf8');
  let out = '';
  const waiters = [];
  // Patterns being waited for are also looked for in each write as it arrives (with the end of
  // what came before), so a line that scrolls out of the kept tail between two looks still counts.
  const watches = new Set();
  const stdout = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        const s = chunk.toString();
        const seen = out.slice(-400) + s;
        for (const w of watches) if (w.re.test(seen)) w.hit = true;
        out += s;
        if (out.length > 4_000_000) out = out.slice(-1_000_000);
        for (const w of waiters.splice(0)) w();
        cb();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );
  const nextWrite = () => new Promise((r) => waiters.push(r));
  const waitFor = async (re, ms = 30_000) => {
    const until = Date.now() + ms;
    const w = { re, hit: false };
    watches.add(w);
    try {
      while (!w.hit && !re.test(out)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${re}; last output: ${out.slice(-600)}`);
        await Promise.race([nextWrite(), new Promise((r) => setTimeout(r, 50))]);
      }
    } finally {
      watches.delete(w);
    }
  };
  return {
    stdin,
    stdout,
    nextWrite,
    waitFor,
    get out() {
      return out;
    },
    clear() {
      out = '';
    },
  };
}

function sandbox(hooks, script) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-bench-')));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(join(home, 'config.toml'), `[projects."${ws}"]\ntrust_level = "trusted"\n${hooks}`);
  writeFileSync(join(dir, 'script.jsonl'), `${script.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return { dir, home, ws, script: join(dir, 'script.jsonl') };
}

async function session(sb, { auto = false } = {}) {
  const t = terminal();
  const t0 = performance.now();
  const done = tui.runTui({ workspace: sb.ws, replay: sb.script, auto, env: { PATH: process.env.PATH, HOME: sb.dir, CODEWHALE_HOME: sb.home }, stdin: t.stdin, stdout: t.stdout, stderr: t.stdout });
  await t.waitFor(/idle · /);
  const firstFrame = performance.now() - t0;
  return { t, done, firstFrame };
}

async function stallDuring(fn) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await fn();
  h.disable();
  return { max: h.max / 1e6, p99: h.percentile(99) / 1e6 };
}

async function keystrokeLatency(t, runs = 30) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    await new Promise((r) => setTimeout(r, 40)); // past Ink's 30 fps throttle window
    const w = t.nextWrite();
    const s = performance.now();
    t.stdin.write(String.fromCharCode(97 + (i % 26)));
    await w;
    samples.push(performance.now() - s);
  }
  t.stdin.write('\x15'); // Ctrl-U: clear the composer
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}

async function bareInk() {
  const t = terminal();
  function Echo() {
    const [s, set] = React.useState('');
    ink.useInput((input) => set((x) => x + input));
    return React.createElement(ink.Text, null, `> ${s}`);
  }
  const t0 = performance.now();
  const inst = ink.render(React.createElement(Echo), { stdin: t.stdin, stdout: t.stdout, exitOnCtrlC: false, patchConsole: false });
  await t.waitFor(/>/);
  const first = performance.now() - t0;
  await new Promise((r) => setImmediate(r));
  const keys = await keystrokeLatency(t, 30);
  inst.unmount();
  return { first, keys };
}

async function quit(s) {
  await new Promise((r) => setTimeout(r, 50));
  s.t.stdin.write('/quit\r');
  await s.done;
}

export async function run() {
  const rows = [];
  // Baseline: the longest stall of this same process doing nothing for 1 s (scheduler noise on a loaded machine).
  const idle = await stallDuring(() => new Promise((r) => setTimeout(r, 1000)));
  const bare = await bareInk();

  // 1. first frame + keystrokes (no hooks, a one-line answer)
  const sb1 = sandbox('', [{ text: 'ok' }]);
  const s1 = await session(sb1);
  await new Promise((r) => setImmediate(r));
  const keys = await keystrokeLatency(s1.t, 30);
  await quit(s1);
  rows.push({ name: 'tui: first frame (real host)', value: round(s1.firstFrame, 1), unit: 'ms', note: `bare Ink app: ${round(bare.first, 1)} ms; includes openSession + session_start` });
  rows.push({
    name: 'tui: keystroke → frame (median)',
    value: round(keys.median, 2),
    unit: 'ms',
    note: `p90 ${round(keys.p90, 2)} ms; bare Ink echo: median ${round(bare.keys.median, 2)}, p90 ${round(bare.keys.p90, 2)} ms`,
  });

  // 2. a slow message_submit hook (1 s) runs: the UI keeps its event loop free. The first turn of a
  //    session is measured apart (cold: first use of the engine's code paths); the second is warm.
  const slow = `[[hooks.hooks]]\nname = "slow"\nevent = "message_submit"\ncommand = "sleep 1"\n`;
  const sb2 = sandbox(slow, [{ text: 'answer-1' }, { text: 'answer-2' }]);
  const s2 = await session(sb2);
  const cold = await stallDuring(async () => {
    s2.t.stdin.write('one\r');
    await s2.t.waitFor(/answer-1/);
    await s2.t.waitFor(/○ idle/);
  });
  await new Promise((r) => setTimeout(r, 200));
  const st2 = await stallDuring(async () => {
    s2.t.stdin.write('two\r');
    await s2.t.waitFor(/answer-2/);
    await s2.t.waitFor(/○ idle/);
  });
  await quit(s2);
  rows.push({ name: 'tui: longest stall, slow hook running', value: round(st2.max, 2), unit: 'ms', note: `p99 ${round(st2.p99, 2)} ms (goal ≤ 16 ms); idle baseline max ${round(idle.max, 2)} ms` });
  rows.push({ name: 'tui: longest stall, first turn (cold)', value: round(cold.max, 2), unit: 'ms', note: `p99 ${round(cold.p99, 2)} ms; the same slow hook, first use of the engine's code paths` });

  // 3. a 10 MB tool output, then a 10 MB streamed answer (after a warm-up turn)
  const sb3 = sandbox('', [
    { text: 'warm' },
    { tool_calls: [{ id: 'big', name: 'bash', arguments: { command: "head -c 10000000 /dev/zero | tr '\\0' 'x' | fold -w 100" } }] },
    { text: 'y'.repeat(100).concat('\n').repeat(100_000) },
  ]);
  const s3 = await session(sb3, { auto: true });
  s3.t.stdin.write('warm up\r');
  await s3.t.waitFor(/warm/);
  await s3.t.waitFor(/○ idle/);
  await new Promise((r) => setTimeout(r, 200));
  const st3 = await stallDuring(async () => {
    s3.t.stdin.write('big\r');
    // Watched at once: the 10 MB answer that follows pushes these lines out of the kept output.
    await Promise.all([s3.t.waitFor(/✓ #1 bash/, 120_000), s3.t.waitFor(/lines not shown/, 120_000)]);
    await s3.t.waitFor(/○ idle/, 120_000);
  });
  await quit(s3);
  rows.push({
    name: 'tui: longest stall, 10 MB output + 10 MB answer',
    value: round(st3.max, 2),
    unit: 'ms',
    note: `p99 ${round(st3.p99, 2)} ms (goal ≤ 16 ms); idle baseline max ${round(idle.max, 2)} ms`,
  });

  for (const sb of [sb1, sb2, sb3]) rmSync(sb.dir, { recursive: true, force: true });

  // 4. streaming, this build (and a base build, when given), against the engine alone. CPU time,
  //    not wall time, is what this compares (the machine may be shared); each figure is the
  //    median of RUNS runs, with the load average and Node's version in the notes.
  const RUNS = Number(process.env.CW_TUI_STREAM_RUNS) || 3;
  const med = (xs) => {
    const f = xs.filter(Number.isFinite).sort((a, b) => a - b);
    return f.length ? f[Math.floor(f.length / 2)] : Number.POSITIVE_INFINITY;
  };
  const load0 = loadavg()[0];
  const engineRuns = [];
  for (let i = 0; i < RUNS; i++) engineRuns.push(await engineOnly());
  const engine = { cpuPerKb: med(engineRuns.map((r) => r.cpuPerKb)), wallMs: med(engineRuns.map((r) => r.wallMs)) };
  const floorRuns = [];
  for (let i = 0; i < RUNS; i++) floorRuns.push(await httpFloor());
  const floor = med(floorRuns.map((r) => r.cpuPerKb));
  const builds = [['', join(root, 'packages/tui/dist/index.js')], ...(process.env.CW_TUI_BASE ? [[' (base build)', process.env.CW_TUI_BASE]] : [])];
  for (const [label, dist] of builds) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await streamScenario(dist));
    const m = (k) => med(runs.map((r) => r[k]));
    const where = `median of ${RUNS}; load ${round(load0, 1)}→${round(loadavg()[0], 1)}, node ${process.version}`;
    const done = runs.every((r) => r.finished) ? '' : '; an answer did not finish in 300 s';
    rows.push({ name: `tui: terminal bytes per byte streamed${label}`, value: round(m('bytesPerByte'), 2), unit: 'ratio', note: `20 KB answer in 7-char deltas, 100×30 (goal ≤ 4); ${where}${done}` });
    rows.push({
      name: `tui: agent CPU per KB streamed${label}`,
      value: round(m('cpuPerKb'), 1),
      unit: 'ms/KB',
      note: `goal ≤ 20; engine alone (no UI): ${round(engine.cpuPerKb, 1)} ms/KB, so the UI's share is ${round(m('cpuPerKb') - engine.cpuPerKb, 1)}; Node's HTTP client alone reading and parsing the same stream: ${round(floor, 1)} ms/KB; wall ${round(m('wallMs') / 1000, 2)} s (engine alone ${round(engine.wallMs / 1000, 2)} s); ${where}`,
    });
    rows.push({
      name: `tui: keystroke → frame while streaming${label}`,
      value: round(m('keyP99'), 2),
      unit: 'ms p99',
      note: `median ${round(m('keyMedian'), 2)} ms over ${runs[0].keySamples} keys a run (goal p99 ≤ 16 ms); ${where}`,
    });
    const esc = m('esc');
    rows.push({
      name: `tui: Esc → turn interrupted while streaming${label}`,
      value: Number.isFinite(esc) ? round(esc, 1) : 'none in 120 s',
      unit: 'ms',
      note: `after ~20 KB of a 200 KB answer in 7-char deltas; until the line is on screen (goal ≤ 50 ms); ${where}`,
    });
    rows.push({
      name: `tui: clear sequences per answer${label}`,
      value: Math.max(...runs.map((r) => r.clears)),
      unit: 'count',
      note: `ESC[2J / ESC[3J written during the 20 KB answer, most in ${RUNS} runs (goal 0)`,
    });
  }
  return rows;
}
