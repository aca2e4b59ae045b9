// The streaming rows of `pnpm bench tui`: one TUI build (its dist/index.js) streams answers from a
// real HTTP model server (the engine's fake Chat Completions server, in a child process so its
// CPU is not counted) in 7-character deltas, one a millisecond, into an in-memory 100×30 terminal. Measured:
// terminal bytes written per byte of answer, the UI process's CPU per KB of answer, keystroke →
// frame while streaming, Esc → "turn interrupted" on screen while streaming, and clear
// sequences (ESC[2J / ESC[3J) written per answer.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';

const root = new URL('..', import.meta.url).pathname;
/** Characters per delta, as the issue measured it. */
const DELTA = 7;

function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode() {}, ref() {}, unref() {} });
  stdin.setEncoding('utf8');
  let out = '';
  let bytes = 0;
  let clears = 0;
  const waiters = [];
  const stdout = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        const s = chunk.toString();
        bytes += Buffer.byteLength(s);
        clears += (s.match(/\x1b\[[23]J/g) ?? []).length;
        out += s;
        // What the waits look for is near the end: keep the tail (the regexes stay cheap).
        if (out.length > 128_000) out = out.slice(-64_000);
        for (const w of waiters.splice(0)) w(s);
        cb();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );
  const nextWrite = () => new Promise((r) => waiters.push(r));
  const waitFor = async (re, ms = 120_000) => {
    const until = Date.now() + ms;
    while (!re.test(out)) {
      if (Date.now() > until) return false;
      await Promise.race([nextWrite(), new Promise((r) => setTimeout(r, 50))]);
    }
    return true;
  };
  return {
    stdin,
    stdout,
    nextWrite,
    waitFor,
    reset() {
      out = '';
      bytes = 0;
      clears = 0;
    },
    get bytes() {
      return bytes;
    },
    get clears() {
      return clears;
    },
  };
}

/** The fake model server in a child process; resolves to its URL and a stop function. */
function fakeServer(turns, dir) {
  const file = join(dir, 'turns.json');
  writeFileSync(file, JSON.stringify(turns));
  const script = `import { readFileSync } from 'node:fs';
import { startFakeOpenAIServer } from ${JSON.stringify(join(root, 'packages/engine/dist/testing/index.js'))};
const turns = JSON.parse(readFileSync(process.env.TURNS_FILE, 'utf8'));
const s = await startFakeOpenAIServer({ turns, chunkDelayMs: 1 });
process.stdout.write(s.url + '\\n');
process.stdin.on('end', () => s.close().then(() => process.exit(0)));
process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TURNS_FILE: file }, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout.once('data', (d) => resolve({ url: String(d).trim(), stop: () => child.stdin.end() }));
  });
}

/** A text of about `size` characters: paragraphs of ~263 characters, blank lines between. */
export function answer(size, tag) {
  const paras = [];
  let n = 0;
  let len = 0;
  while (len < size) {
    const words = Array.from({ length: 38 }, (_, k) => `${tag}${n}w${k}`).join(' ');
    const p = `${words} end-of-${tag}${n}`;
    paras.push(p);
    len += p.length + 2;
    n++;
  }
  return paras.join('\n\n');
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

/**
 * Run the streaming scenario against the TUI build at `distIndex`. `answerBytes`: the measured
 * answer; the Esc answer is ten times longer (it is cancelled after about 20 KB).
 */
export async function streamScenario(distIndex, { answerBytes = 20_000 } = {}) {
  const tui = await import(distIndex);
  const long = answer(answerBytes, 'a');
  const escAnswer = answer(answerBytes * 10, 'e');
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-tui-stream-')));
  const server = await fakeServer([{ text: 'warm' }, { text: `${long}\n\nEND-OF-ANSWER`, deltaChars: DELTA }, { text: escAnswer, deltaChars: DELTA }], dir);
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(
    join(home, 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[projects."${ws}"]\ntrust_level = "trusted"\n`,
  );
  const t = terminal();
  const done = tui.runTui({ workspace: ws, env: { PATH: process.env.PATH, HOME: dir, CODEWHALE_HOME: home, FAKE_API_KEY: 'sk-bench' }, stdin: t.stdin, stdout: t.stdout, stderr: t.stdout });
  await t.waitFor(/idle · /);
  t.stdin.write('warm up\r');
  await t.waitFor(/warm/);
  await t.waitFor(/○ idle/);
  await new Promise((r) => setTimeout(r, 200));

  // 1. The measured answer: bytes, CPU, clears; keystrokes typed while it streams.
  t.reset();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  t.stdin.write('stream it\r');
  const keys = [];
  let streaming = true;
  const typing = (async () => {
    await t.waitFor(/a3w/);
    while (streaming && keys.length < 60) {
      await new Promise((r) => setTimeout(r, 45));
      if (!streaming) break;
      const w = t.nextWrite();
      const s = performance.now();
      t.stdin.write('k');
      await w;
      keys.push(performance.now() - s);
    }
  })();
  const finished = await t.waitFor(/END-OF-ANSWER[\s\S]*○ idle/, 300_000);
  streaming = false;
  await typing;
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - wall0;
  const bytes = t.bytes;
  const clears = t.clears;
  t.stdin.write('\x15'); // Ctrl-U: clear the typed k's

  // 2. Esc while an answer streams in 8-character deltas (after about answerBytes of it).
  await new Promise((r) => setTimeout(r, 200));
  t.reset();
  t.stdin.write('then cancel it\r');
  const mark = new RegExp(`end-of-e${Math.floor(answerBytes / 265)}\\b`);
  await t.waitFor(mark, 300_000);
  const e0 = performance.now();
  t.stdin.write('\x1b');
  const cancelled = await t.waitFor(/turn interrupted/, 120_000);
  const esc = cancelled ? performance.now() - e0 : Number.POSITIVE_INFINITY;
  await t.waitFor(/○ idle/, 120_000);

  await new Promise((r) => setTimeout(r, 100));
  t.stdin.write('/quit\r');
  await done;
  server.stop();
  rmSync(dir, { recursive: true, force: true });
  const streamed = Buffer.byteLength(long);
  return {
    finished,
    bytesPerByte: bytes / streamed,
    cpuPerKb: (cpu.user + cpu.system) / 1000 / (streamed / 1024),
    wallMs: wall,
    keyMedian: keys.length ? median(keys) : NaN,
    keyP99: keys.length ? p99(keys) : NaN,
    keySamples: keys.length,
    esc,
    clears,
  };
}

/**
 * The same measured answer through the engine's session host alone (no UI): the CPU the agent
 * spends per KB whatever draws it, the baseline for the UI's share.
 */
export async function engineOnly({ answerBytes = 20_000 } = {}) {
  const engine = await import(join(root, 'packages/engine/dist/index.js'));
  const long = answer(answerBytes, 'a');
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-engine-stream-')));
  const server = await fakeServer([{ text: 'warm' }, { text: long, deltaChars: DELTA }], dir);
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(
    join(home, 'config.toml'),
    `provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\napi_key_env = "FAKE_API_KEY"\n\n[projects."${ws}"]\ntrust_level = "trusted"\n`,
  );
  const host = await engine.openSession({
    workspace: ws,
    home,
    env: { PATH: process.env.PATH, HOME: dir, FAKE_API_KEY: 'sk-bench' },
    profile: 'tui',
    interaction: { approve: async () => 'deny', askUser: async () => null },
    flags: {},
  });
  await host.start();
  const turn = () =>
    new Promise((r) => {
      const off = host.subscribe((e) => {
        if (e.type === 'turn_completed') {
          off();
          r();
        }
      });
    });
  let t = turn();
  await host.submit('warm');
  await t;
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  t = turn();
  await host.submit('go');
  await t;
  const c = process.cpuUsage(c0);
  const wallMs = performance.now() - w0;
  await host.end();
  await host.dispose();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { cpuPerKb: (c.user + c.system) / 1000 / (Buffer.byteLength(long) / 1024), wallMs };
}

/**
 * The floor under both: the same stream read by Node's own HTTP client, each server-sent event
 * split out and parsed (JSON.parse) and nothing else — what receiving it costs this process
 * before any engine or UI code runs.
 */
export async function httpFloor({ answerBytes = 20_000 } = {}) {
  const { Agent, request } = await import('node:http');
  const long = answer(answerBytes, 'a');
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-http-floor-')));
  const server = await fakeServer([{ text: long, deltaChars: DELTA }], dir);
  const c0 = process.cpuUsage();
  await new Promise((resolve, reject) => {
    const req = request(`${server.url}/chat/completions`, { method: 'POST', agent: new Agent(), headers: { 'content-type': 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (d) => {
        buf += d;
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const event = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (event.startsWith('data: {')) JSON.parse(event.slice(6));
        }
      });
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'go' }], stream: true }));
  });
  const c = process.cpuUsage(c0);
  server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { cpuPerKb: (c.user + c.system) / 1000 / (Buffer.byteLength(long) / 1024) };
}
