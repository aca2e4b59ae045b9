/**
 * The program the process host runs: plain CommonJS for `node -e`, with no imports beyond
 * `node:child_process`, `node:events`, `node:fs` and `node:os` (and, on Node 20, the process and
 * pipe handles that child_process wraps; see below), kept as a string so it survives any bundling
 * of the packages that embed it. It is started once, lazily, by {@link ProcessHost} and does
 * every spawn of the process on the agent's behalf, because a spawn from this small process
 * costs the agent nothing: on Linux the kernel copies the spawning process's page tables, and
 * the agent's are many times larger than this program's (see docs/design-notes.md, D-host).
 *
 * Protocol: JSON Lines. The host first writes `{t:'ready', spawner}` (`'native'`, `'handles'` or
 * `'child_process'`: how it spawns; `native=<path>` on its command line names codewhale-spawn,
 * `spawn=child_process` asks for child_process, see below). Requests on stdin: `{t:'r', id, mode:'hook'|'shell', …}` runs a
 * process, `{t:'c', env, runs:[{id, …hook request, stopIfFailed}]}` runs hooks one after the other
 * (a chain, see run-hook.ts; a run without an `env` of its own gets the chain's), `{t:'k', id}` stops a shell run (cancel).
 * An environment's fixed part can be sent once: `{t:'e', id, env}` keeps it as base `id` (`env:
 * null` drops it), and a chain then carries `base: id, vars` instead of `env` (the base with
 * `vars` on top; a chain naming a base the host does not hold fails each run as a spawn error,
 * so no hook starts with an environment it was not given). Replies on stdout:
 * `{t:'s', id, pid}` once the process exists (its pid is its process group and session id),
 * then exactly one `{t:'d', id, …}` with the result. In a chain, each run starts as soon as
 * the one before it has its result, without a round trip through the agent; after a run with
 * `stopIfFailed` that did not exit 0, every later run of the chain gets `{t:'d', id,
 * skipped:true}` and never starts. A chain with `after: <id>` (the last run of a chain sent
 * before it) starts when that chain has ended, or at once when no such chain is running: an
 * observer worker's next event, begun behind the one it runs (see work-queue.ts). `{t:'x', id}`
 * (the first run of such a chain) withdraws it while it still waits: each of its runs gets
 * `skipped` and none starts; a chain that has started is not touched. A chain's `then: {id,
 * mode:'shell', env, …}` is a shell run that starts the moment the chain ends, only if every
 * run of the chain exited 0, wrote nothing to stdout and drained (gates that allow the call as
 * it is); otherwise, or after `{t:'k', id}` for it, it gets `{t:'d', id, skipped:true}`. When stdin closes (the
 * agent is gone), every process group the host started gets SIGKILL, their sessions are swept,
 * and the host exits.
 *
 * `{t:'h', id, file, args}` starts another host for the agent, so the agent never forks its own
 * (much larger) process for one: `file` with `args`, in a session of its own, with an empty
 * environment and no standard streams, answered `{t:'d', id, pid}` at once (or `spawnError`).
 * It is not a run: this host neither reports nor kills it. Its command line ends with
 * `connect=<path>`, a Unix socket the agent listens on, which it then uses instead of stdin and
 * stdout, and whose closing ends it as stdin's does. Every host's `ready` carries its `pid`,
 * which the agent checks against the one the starting host gave.
 *
 * Before `ready`, the host does one run of its own (`/bin/sh -c :`, through the same code as a
 * hook's, its messages never sent): the first spawn of a fresh host compiles everything on the
 * way and took ~6 ms longer than any later one, which no hook should pay.
 *
 * Memory (Linux). A fork copies the page tables of all of the spawning process's memory, and a
 * host that has read much output spawns slower: each read lands in native memory held by
 * JavaScript objects that often die only in the old generation, which V8 collects rarely. So
 * once the host has read its collection threshold of child output since its last full
 * collection, it does one at its next sweep (see below) when it has nothing running, or at
 * four times the threshold when it never gets idle. The first collection's result is the
 * host's baseline; when a later one leaves its anonymous resident memory (`RssAnon`) more than
 * its growth limit above that baseline, it writes `{t:'grown', bytes}`, once, and
 * process-host.ts replaces it (see there). The two numbers come after the program on its
 * command line (growth limit, then collection threshold), {@link HOST_GROWTH_LIMIT_BYTES} and
 * {@link HOST_COLLECT_AFTER_BYTES} without them. `{t:'q'}` asks for `{t:'q', anon, baseline,
 * collections, grown}` (bytes; `null` where unknown, as off Linux): a diagnostic.
 */
import { newestPid, SWEEP_WINDOW_MAX_AGE_MS, sweepCandidates } from './session-sweep.js';
import { openStdinFile } from './stdin-file.js';

/**
 * The version of the host's wire protocol (the messages above and the fields of a request and
 * a result). Copies of this package in one process share a host only when their numbers are
 * equal (see process-host.ts); bump it whenever the protocol changes. A test pins a hash of
 * the program below, so any change to it asks whether this number must move.
 */
export const HOST_PROTOCOL = 8;

/**
 * How much anonymous memory a host may hold above its baseline (what its first full
 * collection left), measured right after a later one, before it says it has grown and is
 * replaced: 4 MiB (see docs/design-notes.md, "A host that grows").
 */
export const HOST_GROWTH_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * How much child output the host reads between two full collections: 2 MiB. One took ~3–4 ms
 * of the host's time (the heap is small, but marking has a fixed cost), so it is done at a
 * sweep, when idle, and only after output (quiet hooks read next to none).
 */
export const HOST_COLLECT_AFTER_BYTES = 2 * 1024 * 1024;

/**
 * Node options the host is started with: a young generation of 1 MiB per semi-space instead
 * of V8's 16 (the host's live data is tiny, so its collections stay cheap, and its heap no
 * longer grows by ~30 MiB of young-generation pages that every fork would copy), and `gc()`
 * for its full collections when idle (above).
 */
/**
 * A memory limit from the host's command line: `value` when it is the decimal text of a safe
 * integer (negative ones included: tests use them to mean "at the first check"), `fallback`
 * otherwise. The host runs this function's source text.
 */
export function hostLimitArg(value: string | undefined, fallback: number): number {
  if (value === undefined || !/^-?\d{1,16}$/.test(value)) return fallback;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : fallback;
}

export const HOST_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=1', '--expose-gc'];

export const PROCESS_HOST_SOURCE = String.raw`'use strict';
const cp = require('node:child_process');
const fs = require('node:fs');
const SIG = require('node:os').constants.signals;
const ESRCH = -require('node:os').constants.errno.ESRCH;
// process._kill reports an errno instead of throwing: a group that is already gone is the
// normal case after a hook exits, not an exception.
const rawKill = typeof process._kill === 'function'
  ? (pid, sig) => process._kill(pid, sig)
  : (pid, sig) => { try { process.kill(pid, sig); return 0; } catch (e) { return e.code === 'ESRCH' ? ESRCH : -1; } };
function signalGroup(pid, sig) {
  const r = rawKill(-pid, SIG[sig]);
  if (r === 0) return true;
  if (r === ESRCH) return false;
  return rawKill(pid, SIG[sig]) === 0;
}

const runs = new Map();
let closing = false;
// The id of the host's own run before 'ready' (see warmUp); its messages are never sent.
const WARM_ID = -1;
// Replies are written at once, except a chain's held result (see runChain), which goes out
// with the next reply in one write: one wake-up of the agent instead of two.
let outbox = '';
function send(msg, hold) {
  if (closing || msg.id === WARM_ID) return;
  outbox += JSON.stringify(msg) + '\n';
  if (!hold) flush();
}
function flush() {
  if (outbox === '' || closing) return;
  const text = outbox;
  outbox = '';
  output.write(text);
}
// The agent's end: stdin and stdout, or, for a host another host started (\`connect=<path>\` on
// the command line, see the 'h' request), one Unix socket the agent listens on. A host
// started that way is the agent's all the same: when that socket closes, it shuts down.
const connectArg = process.argv.find((a) => a.startsWith('connect='));
const input = connectArg === undefined ? process.stdin : require('node:net').connect(connectArg.slice('connect='.length));
const output = connectArg === undefined ? process.stdout : input;

// Linux: a process that called setpgid left the hook's group but not its session (the hook
// is a session leader). Sessions of ended runs are swept when the host is idle, off the path
// of the next spawn, and at the latest SWEEP_MAX_DELAY_MS after the run ended. Only the pids
// allocated after a session's leader (up to the newest pid, /proc/loadavg) can be its members;
// the whole table is read when that window cannot be trusted (see session-sweep.ts).
const SWEEP_IDLE_MS = 15;
const SWEEP_MAX_DELAY_MS = 200;
const SWEEP_WINDOW_MAX_AGE_MS = ${SWEEP_WINDOW_MAX_AGE_MS};
// The window, from session-sweep.ts (their source text, so both apply the same rule).
const newestPid = ${newestPid.toString()};
const sweepCandidates = ${sweepCandidates.toString()};
const pendingSessions = new Map();
let sweepTimer = null;
let sweepDeadline = 0;
function scheduleSweep(sid, started) {
  if (process.platform !== 'linux') return;
  pendingSessions.set(sid, Math.min(started, pendingSessions.has(sid) ? pendingSessions.get(sid) : started));
  const now = Date.now();
  if (sweepDeadline === 0) sweepDeadline = now + SWEEP_MAX_DELAY_MS;
  if (sweepTimer) clearTimeout(sweepTimer);
  sweepTimer = setTimeout(sweep, Math.max(0, Math.min(SWEEP_IDLE_MS, sweepDeadline - now)));
}
function sweep() {
  sweepTimer = null;
  sweepDeadline = 0;
  const sids = new Map();
  for (const [sid, started] of pendingSessions) {
    // A live process with the leader's pid means the pid was reused (by a new session
    // leader, possibly ours): that session is not the one that ended.
    if (!runs.has(sid) && !fs.existsSync('/proc/' + sid)) sids.set(sid, started);
  }
  pendingSessions.clear();
  killSessions(sids);
  checkGrowth();
}

// Memory (Linux; see the top of this file): a full collection once enough output was read,
// and 'grown' when one leaves too much above the first one's result.
const hostLimitArg = ${hostLimitArg.toString()};
const GROWTH_LIMIT = hostLimitArg(process.argv[1], ${HOST_GROWTH_LIMIT_BYTES});
const COLLECT_AFTER = hostLimitArg(process.argv[2], ${HOST_COLLECT_AFTER_BYTES});
let baseline = null;
let collections = 0;
let outputSinceCollection = 0;
let grownSent = false;
function anonBytes() {
  if (process.platform !== 'linux') return null;
  try {
    const m = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'latin1'));
    return m ? Number(m[1]) * 1024 : null;
  } catch { return null; }
}
function checkGrowth() {
  if (typeof global.gc !== 'function') return;
  // Idle, or never idle (runs back to back) and at four times the output.
  const idle = runs.size === 0 && waiting.size === 0;
  if (outputSinceCollection < (idle ? COLLECT_AFTER : 4 * COLLECT_AFTER)) return;
  outputSinceCollection = 0;
  global.gc();
  collections++;
  const after = anonBytes();
  if (after === null) return;
  if (baseline === null) baseline = after;
  else if (!grownSent && after - baseline > GROWTH_LIMIT) {
    grownSent = true;
    send({ t: 'grown', bytes: after - baseline });
  }
}

function killSessions(sids) {
  if (sids.size === 0 || process.platform !== 'linux') return;
  let entries;
  try { entries = fs.readdirSync('/proc'); } catch { return; }
  let newest = null;
  try { newest = newestPid(fs.readFileSync('/proc/loadavg', 'latin1')); } catch {}
  for (const pid of sweepCandidates(entries, sids, newest, Date.now(), SWEEP_WINDOW_MAX_AGE_MS)) {
    const e = String(pid);
    let stat;
    try { stat = fs.readFileSync('/proc/' + e + '/stat', 'latin1'); } catch { continue; }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (sids.has(Number(fields[3]))) rawKill(pid, SIG.SIGKILL);
  }
}

function utf8End(b) {
  const n = b.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const x = b[n - back];
    if ((x & 0xc0) === 0x80) continue;
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
// The hook capture: the first max bytes, the rest counted and discarded.
function bounded(max) {
  const chunks = [];
  let bytes = 0, dropped = 0;
  return {
    push(chunk) {
      const room = max - bytes;
      if (room <= 0) { dropped += chunk.length; return; }
      if (chunk.length <= room) { chunks.push(chunk); bytes += chunk.length; }
      else { chunks.push(chunk.subarray(0, room)); bytes += room; dropped += chunk.length - room; }
    },
    get truncated() { return dropped > 0; },
    get empty() { return bytes === 0 && dropped === 0; },
    text() {
      const all = Buffer.concat(chunks, bytes);
      return new TextDecoder('utf-8').decode(all.subarray(0, dropped > 0 ? utf8End(all) : all.length));
    },
  };
}
// The shell tool's capture: the first head and the last tail bytes, with a marker between.
function headTail(headMax, tailMax) {
  const head = [];
  let headLen = 0, tail = [], tailLen = 0, dropped = 0;
  return {
    push(chunk) {
      let c = chunk;
      if (headLen < headMax) {
        const take = Math.min(headMax - headLen, c.length);
        head.push(c.subarray(0, take));
        headLen += take;
        c = c.subarray(take);
      }
      if (c.length === 0) return;
      tail.push(c);
      tailLen += c.length;
      while (tailLen > tailMax && tail.length > 0) {
        const first = tail[0];
        const excess = tailLen - tailMax;
        if (first.length <= excess) { tail.shift(); tailLen -= first.length; dropped += first.length; }
        else { tail[0] = first.subarray(excess); tailLen -= excess; dropped += excess; }
      }
    },
    get truncated() { return dropped > 0; },
    text() {
      const dec = () => new TextDecoder('utf-8');
      if (dropped === 0) return dec().decode(Buffer.concat(head.concat(tail), headLen + tailLen));
      let h = Buffer.concat(head, headLen);
      let t = Buffer.concat(tail, tailLen);
      h = h.subarray(0, utf8End(h));
      let start = 0;
      while (start < t.length && start < 4 && (t[start] & 0xc0) === 0x80) start++;
      t = t.subarray(start);
      return dec().decode(h) + '\n[… ' + dropped + ' bytes of output omitted …]\n' + dec().decode(t);
    },
  };
}

// A hook's stdin document goes in an unnamed file in memory rather than a pipe, when it can
// (see stdin-file.ts, whose function this is); no document is /dev/null (EOF at once).
const stdinFiles = { root: '/dev/shm', dir: undefined };
const openStdinFile = ${openStdinFile.toString()};

// Spawning through the handles child_process.spawn itself wraps (process_wrap's Process,
// pipe_wrap's Pipe, read as net.Socket reads them), without the ChildProcess, net.Socket and
// stream objects around them: ~0.5 ms less CPU per spawn, and a shorter spawn, measured here
// (docs/design-notes.md, "The handles again, on a host kept small"). Only on the Node
// major version this was checked against (20), only when every piece is there, and never
// when the agent asked for child_process (\`spawn=child_process\` on the command line);
// otherwise, and for any request it does not take, child_process.spawn as before.
const EOF_ERRNO = -4095; // UV_EOF
// An errno's name by its negative number, made on the first spawn error.
let errnoNames = null;
const errnoName = (r) => (errnoNames ??= new Map(Object.entries(require('node:os').constants.errno).map(([k, v]) => [-v, k]))).get(r) || 'Other';
const handles = (() => {
  if (process.argv.includes('spawn=child_process') || process.versions.node.split('.')[0] !== '20' || typeof process.binding !== 'function') return null;
  try {
    const pw = process.binding('process_wrap'), pp = process.binding('pipe_wrap'), sw = process.binding('stream_wrap');
    const ok = typeof pw.Process === 'function' && typeof pp.Pipe === 'function' && pp.constants && typeof pp.constants.SOCKET === 'number'
      && sw.streamBaseState && typeof sw.kReadBytesOrError === 'number' && typeof sw.kArrayBufferOffset === 'number';
    return ok ? { Process: pw.Process, Pipe: pp.Pipe, SOCKET: pp.constants.SOCKET, state: sw.streamBaseState, kRead: sw.kReadBytesOrError, kOffset: sw.kArrayBufferOffset } : null;
  } catch { return null; }
})();
const EventEmitter = require('node:events');
// A child's output: 'data' chunks, then 'end' and 'close' (as a net.Socket emits them); \`fd\`,
// when given, is a descriptor the pipe takes over (the host's end of a native spawn's pair).
function handleStream(fd) {
  const h = new handles.Pipe(handles.SOCKET);
  if (fd !== undefined) {
    const r = h.open(fd);
    if (typeof r === 'number' && r !== 0) { h.close(); fs.closeSync(fd); const e = new Error('open'); e.code = errnoName(r); throw e; }
  }
  const s = new EventEmitter();
  let closed = false;
  const close = () => { if (closed) return; closed = true; h.readStop(); h.close(() => s.emit('close')); };
  s.handle = h;
  s.destroy = close;
  s.start = () => {
    h.onread = (ab) => {
      const n = handles.state[handles.kRead];
      if (n > 0) { s.emit('data', Buffer.from(ab, handles.state[handles.kOffset], n)); return; }
      if (n < 0) { if (n === EOF_ERRNO) s.emit('end'); close(); }
    };
    h.readStart();
  };
  return s;
}
// A string a spawn can take as a file, an argument or a directory (no NUL).
const plain = (v) => typeof v === 'string' && v.indexOf('\0') < 0;
// A spawn failure's reply to request \`id\`: the errno's name, or 'Other'.
const replySpawnError = (id, e) => send({ t: 'd', id, spawnError: String((e && e.code) || 'Other') });
const spawnError = (q, r) => { const e = new Error('spawn ' + q.file); e.code = errnoName(r); return e; };
// The environment's "K=V" entries for a request the handles or the native spawner take, or
// undefined for one they leave to child_process.spawn: a stdin pipe (a document too large for
// a file), or anything child_process would refuse or convert (it then reports the error, as
// before).
function envPairsOf(q, stdio) {
  if (!plain(q.file) || !Array.isArray(q.args) || !q.args.every(plain) || (q.cwd !== undefined && !plain(q.cwd)) || q.env === null || typeof q.env !== 'object') return undefined;
  if (stdio.length !== 3 || !(stdio[0] === 'ignore' || typeof stdio[0] === 'number') || !stdio.slice(1).every((x) => x === 'ignore' || x === 'pipe')) return undefined;
  // child_process.spawn's rule: every enumerable key, inherited ones too, whose value is not undefined.
  const envPairs = [];
  for (const k in q.env) {
    const v = q.env[k];
    if (v === undefined) continue;
    const pair = k + '=' + v;
    if (pair.indexOf('\0') >= 0) return undefined;
    envPairs.push(pair);
  }
  return envPairs;
}
// The child as start() uses it (pid, stdout, stderr, 'exit'), or undefined for a request this
// path leaves to child_process.spawn (see envPairsOf).
function spawnWithHandles(q, stdio) {
  const envPairs = envPairsOf(q, stdio);
  if (envPairs === undefined) return undefined;
  const out = stdio[1] === 'pipe' ? handleStream() : null;
  const err = stdio[2] === 'pipe' ? handleStream() : null;
  const spec = (x, s) => (s ? { type: 'pipe', handle: s.handle } : typeof x === 'number' ? { type: 'fd', fd: x } : { type: 'ignore' });
  const p = new handles.Process();
  const sub = new EventEmitter();
  sub.stdin = null;
  sub.stdout = out;
  sub.stderr = err;
  p.onexit = (code, signal) => { p.close(); sub.emit('exit', signal ? null : code, signal || null); };
  const r = p.spawn({
    file: q.file, args: [q.file].concat(q.args), cwd: q.cwd, envPairs, detached: true,
    stdio: [spec(stdio[0], null), spec(stdio[1], out), spec(stdio[2], err)],
  });
  if (r !== 0) {
    for (const s of [out, err]) if (s) s.handle.close();
    p.close();
    throw spawnError(q, r);
  }
  sub.pid = p.pid;
  for (const s of [out, err]) if (s) s.start();
  return sub;
}

// Spawning with posix_spawn (Linux, glibc): \`native=<path>\` on the command line names
// codewhale-spawn, built from src/native/spawn.c (see process-host-native.ts). glibc clones
// the host without copying its page tables (CLONE_VM | CLONE_VFORK), so a spawn costs about
// half of a fork's here (docs/design-notes.md, "The host spawns with posix_spawn"). The child
// gets what libuv gives a detached child with the same stdio: its own session, an empty signal
// mask, signals 1-31 (and glibc's 32 and 33) at their default, the three descriptors and no
// other (the host's are all close-on-exec), a socket pair for each piped stream. Its output
// is read through pipe_wrap's Pipe, as the handles spawner reads it; its exit comes from
// SIGCHLD, on which every live native child is asked for with waitpid (libuv reaps only the
// children it spawned itself).
// Only where the handles are there, for an absolute file (posix_spawn does not search PATH) and
// a directory that is not empty text; everything else goes the handles' way.
let native = (() => {
  const arg = process.argv.find((a) => a.startsWith('native='));
  if (handles === null || arg === undefined || process.platform !== 'linux' || typeof handles.Pipe.prototype.open !== 'function') return null;
  try {
    const m = require(arg.slice('native='.length));
    return typeof m.spawn === 'function' && typeof m.reap === 'function' ? m : null;
  } catch { return null; }
})();
const nativeLive = new Map(); // pid -> the child's emitter, until its exit has been emitted
let signalNames = null;
// A signal's name by its number; the first of two names wins (SIGABRT, not SIGIOT; SIGIO, not
// SIGPOLL), as in the names Node gives a child's signal.
const signalName = (n) => {
  if (signalNames === null) { signalNames = new Map(); for (const [k, v] of Object.entries(SIG)) if (!signalNames.has(v)) signalNames.set(v, k); }
  return signalNames.get(n) || null;
};
function reapNative() {
  for (const [pid, sub] of nativeLive) {
    const status = native.reap(pid);
    if (status === -1) continue;
    nativeLive.delete(pid);
    // -2: no longer a child of this host (nothing else here waits for it): its status is unknown.
    if (status < 0) sub.emit('exit', null, null);
    else if ((status & 0x7f) === 0) sub.emit('exit', (status >> 8) & 0xff, null);
    else sub.emit('exit', null, signalName(status & 0x7f));
  }
}
if (native !== null) process.on('SIGCHLD', reapNative);
function spawnNative(q, stdio) {
  if (typeof q.file !== 'string' || q.file[0] !== '/' || q.cwd === '') return undefined;
  const envPairs = envPairsOf(q, stdio);
  if (envPairs === undefined) return undefined;
  const pipes = (stdio[1] === 'pipe' ? 1 : 0) | (stdio[2] === 'pipe' ? 2 : 0);
  const r = native.spawn(q.file, [q.file].concat(q.args).join('\0'), envPairs.join('\0'), q.cwd === undefined ? '' : q.cwd, typeof stdio[0] === 'number' ? stdio[0] : -1, pipes);
  if (r[0] < 0) throw spawnError(q, r[0]);
  const pid = r[0];
  const sub = new EventEmitter();
  sub.pid = pid;
  sub.stdin = null;
  nativeLive.set(pid, sub);
  try {
    sub.stdout = r[1] >= 0 ? handleStream(r[1]) : null;
  } catch (e) {
    // The child runs already: it goes with its group, and its exit is reaped as any other.
    if (r[2] >= 0) fs.closeSync(r[2]);
    signalGroup(pid, 'SIGKILL');
    throw e;
  }
  try {
    sub.stderr = r[2] >= 0 ? handleStream(r[2]) : null;
  } catch (e) {
    if (sub.stdout) sub.stdout.destroy();
    signalGroup(pid, 'SIGKILL');
    throw e;
  }
  for (const s of [sub.stdout, sub.stderr]) if (s) s.start();
  return sub;
}

// The process, or null after its spawn error was reported (then \`failed\`, when given, settles
// once the error is known). \`input\`: a hook's stdin document (a string or null) when its
// stdin is to be given; a shell run's stdin is as its request says.
function start(q, failed, input) {
  let sub, fd = null;
  const stdio = q.stdio;
  if (input !== undefined && stdio[0] === 'pipe') {
    if (input === null) stdio[0] = 'ignore';
    else if ((fd = openStdinFile(fs, stdinFiles, input)) !== null) stdio[0] = fd;
  }
  try {
    sub = native !== null ? spawnNative(q, stdio) : undefined;
    if (sub === undefined && handles !== null) sub = spawnWithHandles(q, stdio);
    if (sub === undefined) sub = cp.spawn(q.file, q.args, { cwd: q.cwd, env: q.env, detached: true, stdio });
  } catch (e) {
    replySpawnError(q.id, e);
    if (failed) failed();
    return null;
  } finally {
    // The child has its own copy; the file goes when the last of them closes it.
    if (fd !== null) fs.closeSync(fd);
  }
  if (sub.pid === undefined) {
    sub.once('error', (e) => { replySpawnError(q.id, e); if (failed) failed(); });
    return null;
  }
  sub.on('error', () => {});
  return sub;
}

function streamsOf(sub, makeOut, makeErr) {
  const caps = [], streams = [], done = [];
  for (const [s, make] of [[sub.stdout, makeOut], [sub.stderr, makeErr]]) {
    if (!s) { caps.push(null); continue; }
    const cap = make();
    caps.push(cap);
    streams.push(s);
    s.on('data', (chunk) => { outputSinceCollection += chunk.length; cap.push(chunk); });
    done.push(new Promise((resolve) => { s.once('close', resolve); s.once('end', resolve); s.once('error', () => resolve()); }));
  }
  return { caps, streams, done };
}

function drain(done, streams, ms) {
  return new Promise((resolve) => {
    const t = setTimeout(() => { for (const s of streams) s.destroy(); resolve(false); }, ms);
    Promise.all(done).then(() => { clearTimeout(t); resolve(true); });
  });
}

// Resolves to \`{ ok, clean }\`: \`ok\` when the hook exited with code 0 (what a chain's
// stopIfFailed looks at), \`clean\` when it also wrote not one byte to stdout and its pipes
// drained (what a chain's \`then\` looks at: such a gate allows and changes nothing).
// \`hold()\`, asked when the result is ready: true when it waits in the outbox for the next
// reply (or a flush).
const FAILED = { ok: false, clean: false };
async function runHook(q, hold) {
  const started = Date.now();
  let spawnFailed;
  const failed = new Promise((resolve) => { spawnFailed = () => resolve(FAILED); });
  const sub = start(q, spawnFailed, typeof q.input === 'string' ? q.input : null);
  if (!sub) return failed;
  const pid = sub.pid;
  const run = { pid, stop: null, started };
  runs.set(pid, run);
  send({ t: 's', id: q.id, pid });
  // A pipe: the document was too large for a file, or files cannot be used here.
  if (sub.stdin) {
    sub.stdin.on('error', () => {});
    if (typeof q.input === 'string') sub.stdin.end(q.input + '\n'); else sub.stdin.end();
  }
  const { caps, streams, done } = streamsOf(sub, () => bounded(q.stdoutMax), () => bounded(q.stderrMax));
  const exited = new Promise((resolve) => sub.once('exit', (code, signal) => resolve({ code, signal })));
  let timer;
  const timedOut = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), q.timeoutMs); });
  const first = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (first === 'timeout') {
    signalGroup(pid, 'SIGTERM');
    const killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), q.graceMs);
    let windowTimer;
    const windowDone = new Promise((resolve) => { windowTimer = setTimeout(() => resolve(false), q.graceMs + q.reapMs); });
    const reaped = q.simulateUnreapable ? await windowDone : await Promise.race([exited.then(() => true), windowDone]);
    clearTimeout(windowTimer);
    clearTimeout(killTimer);
    signalGroup(pid, 'SIGKILL');
    await drain(done, streams, q.shutdownMs);
    runs.delete(pid);
    if (reaped) scheduleSweep(pid, started);
    send({ t: 'd', id: q.id, timedOut: true, reaped });
    return FAILED;
  }
  signalGroup(pid, 'SIGTERM');
  const killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), q.graceMs);
  const complete = await drain(done, streams, q.drainMs);
  clearTimeout(killTimer);
  signalGroup(pid, 'SIGKILL');
  runs.delete(pid);
  // The warm-up's \`sh -c :\` leaves no session behind, and its sweep would be the host's first
  // (its first collection, when the threshold is 0) before any work of the agent's.
  if (q.id !== WARM_ID) scheduleSweep(pid, started);
  send({
    t: 'd', id: q.id, timedOut: false, exitCode: first.code, signal: first.code === null ? first.signal : null, complete,
    stdout: caps[0] ? caps[0].text() : '', stderr: caps[1] ? caps[1].text() : '',
    stdoutTruncated: caps[0] ? caps[0].truncated : false, stderrTruncated: caps[1] ? caps[1].truncated : false,
  }, hold !== undefined && hold());
  const ok = first.code === 0;
  return { ok, clean: ok && complete && caps[0] !== null && caps[0].empty };
}

// A chain: each run starts once the one before it has its result; after a run with
// stopIfFailed that did not exit 0, the later runs are skipped. A normal result (not the
// last) is held until the next run has been spawned and goes out with its 's' reply: the
// next spawn does not wait for the write, and the agent wakes once per hook. The chains
// waiting behind this one (sent with \`after\` = its last run's id) start when it ends; its
// last result is then held for the first of them in the same way.
//
// A chain's \`then\` (a shell run request) starts the moment the chain ends, only when every
// run of the chain was clean (see runHook): gates that exited 0 and printed nothing allow the
// call as it is, so the agent would ask for exactly this run next. Otherwise, or when it was
// stopped (\`k\`) before that, it gets \`{t:'d', id, skipped:true}\` and never starts. The
// chain's last result is written before the run is spawned: a host that dies before it has
// never started the run.
const behind = new Map(); // last run id of a running chain -> the chains waiting for its end
const waiting = new Map(); // first run id of a waiting chain -> that chain
const thens = new Map(); // id of a chain's then -> { stopped } until the chain ends
async function runChain(chain, then) {
  const last = chain[chain.length - 1].id;
  behind.set(last, []);
  const waiters = () => behind.get(last).length > 0;
  let clean = true;
  try {
    for (let i = 0; i < chain.length; i++) {
      let r;
      const hold = i + 1 < chain.length ? () => true : waiters;
      try { r = await runHook(chain[i], hold); } catch { send({ t: 'd', id: chain[i].id, spawnError: 'Other' }); r = FAILED; }
      if (!r.clean) clean = false;
      if (!r.ok && chain[i].stopIfFailed) {
        clean = false;
        for (let j = i + 1; j < chain.length; j++) send({ t: 'd', id: chain[j].id, skipped: true }, j + 1 === chain.length && waiters());
        return;
      }
    }
  } finally {
    const next = behind.get(last);
    behind.delete(last);
    for (const c of next) { waiting.delete(c.chain[0].id); void runChain(c.chain, c.then); }
    flush();
    if (then) {
      const stopped = thens.get(then.id).stopped;
      thens.delete(then.id);
      if (clean && !stopped && !closing) runShell(then); else send({ t: 'd', id: then.id, skipped: true });
    }
  }
}
function queueChain(chain, after, then) {
  if (chain.length === 0) {
    // No gate: nothing allowed it.
    if (then) send({ t: 'd', id: then.id, skipped: true });
    return;
  }
  if (then) thens.set(then.id, { stopped: false });
  const ahead = after === undefined ? undefined : behind.get(after);
  if (ahead === undefined) { void runChain(chain, then); return; }
  const entry = { chain, then };
  ahead.push(entry);
  waiting.set(chain[0].id, { entry, ahead });
}
function withdraw(id) {
  const w = waiting.get(id);
  if (!w) return;
  waiting.delete(id);
  w.ahead.splice(w.ahead.indexOf(w.entry), 1);
  for (const r of w.entry.chain) send({ t: 'd', id: r.id, skipped: true });
  if (w.entry.then) { thens.delete(w.entry.then.id); send({ t: 'd', id: w.entry.then.id, skipped: true }); }
}

function runShell(q) {
  const started = Date.now();
  const sub = start(q);
  if (!sub) return;
  const pid = sub.pid;
  let ending = null, killTimer;
  const stop = (why) => {
    if (ending === null) ending = why;
    signalGroup(pid, 'SIGTERM');
    clearTimeout(killTimer);
    killTimer = setTimeout(() => signalGroup(pid, 'SIGKILL'), q.graceMs);
  };
  runs.set(pid, { pid, stop: () => stop('killed'), started });
  byId.set(q.id, pid);
  send({ t: 's', id: q.id, pid });
  const { caps, streams, done } = streamsOf(sub, () => headTail(q.headBytes, q.tailBytes), () => headTail(q.headBytes, q.tailBytes));
  const timer = setTimeout(() => stop('timed_out'), q.timeoutMs);
  sub.once('exit', (code) => {
    clearTimeout(timer);
    signalGroup(pid, 'SIGTERM');
    const finalKill = setTimeout(() => signalGroup(pid, 'SIGKILL'), q.graceMs);
    drain(done, streams, q.drainMs).then(() => {
      clearTimeout(finalKill);
      clearTimeout(killTimer);
      signalGroup(pid, 'SIGKILL');
      runs.delete(pid);
      byId.delete(q.id);
      scheduleSweep(pid, started);
      const status = ending !== null ? ending : code === null ? 'killed' : code === 0 ? 'completed' : 'failed';
      send({
        t: 'd', id: q.id, exitCode: code, status,
        stdout: caps[0] ? caps[0].text() : '', stderr: caps[1] ? caps[1].text() : '',
        stdoutTruncated: caps[0] ? caps[0].truncated : false, stderrTruncated: caps[1] ? caps[1].truncated : false,
      });
    });
  });
}
const byId = new Map();

function shutdown() {
  if (closing) return;
  closing = true;
  const sids = new Map();
  for (const [sid, started] of pendingSessions) if (!fs.existsSync('/proc/' + sid)) sids.set(sid, started);
  // Live runs: their leaders are killed here and not yet reaped, so their sessions are ours.
  for (const [pid, run] of runs) { signalGroup(pid, 'SIGKILL'); sids.set(pid, run.started); }
  killSessions(sids);
  process.exit(0);
}

// The fixed parts of environments, sent once each (see the protocol above).
const envBases = new Map();
function envOf(q) {
  if (typeof q.base !== 'number') return q.env;
  const base = envBases.get(q.base);
  if (base === undefined) return undefined;
  const env = Object.assign({}, base, q.vars);
  // A variable named __proto__ stays a variable (an assignment of that name sets the prototype).
  if (Object.prototype.hasOwnProperty.call(base, '__proto__')) Object.defineProperty(env, '__proto__', { value: base['__proto__'], enumerable: true, writable: true, configurable: true });
  return env;
}

// A sibling host for the agent (the 'h' request): started here so the agent never forks its
// own, much larger, process for it. It is not a run: it is not in \`runs\`, so this host's
// shutdown does not kill it; it has its own link to the agent and ends with that.
function startHost(q) {
  if (!plain(q.file) || !Array.isArray(q.args) || !q.args.every(plain)) { replySpawnError(q.id, null); return; }
  let sub;
  try {
    sub = cp.spawn(q.file, q.args, { env: {}, detached: true, stdio: 'ignore' });
  } catch (e) {
    replySpawnError(q.id, e);
    return;
  }
  sub.unref();
  if (sub.pid === undefined) { sub.once('error', (e) => replySpawnError(q.id, e)); return; }
  sub.on('error', () => {});
  send({ t: 'd', id: q.id, pid: sub.pid });
}

let buffered = '';
input.setEncoding('utf8');
input.on('data', (text) => {
  buffered += text;
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (line === '') continue;
    let q;
    try { q = JSON.parse(line); } catch { continue; }
    if (q.t === 'r') {
      if (q.mode === 'shell') runShell(q); else runHook(q).catch(() => send({ t: 'd', id: q.id, spawnError: 'Other' }));
    } else if (q.t === 'c' && Array.isArray(q.runs)) {
      // Runs without an environment of their own share the chain's (sent once).
      const env = envOf(q);
      // A then carries its own environment (a shell command's is not a hook's).
      const then = q.then !== null && typeof q.then === 'object' && typeof q.then.id === 'number' ? q.then : undefined;
      const thenOk = then === undefined || (then.mode === 'shell' && then.env !== null && typeof then.env === 'object');
      if (!thenOk || (env === undefined && q.runs.some((r) => r.env === undefined))) {
        for (const r of q.runs) send({ t: 'd', id: r.id, spawnError: 'Other' });
        if (then) send({ t: 'd', id: then.id, skipped: true });
        continue;
      }
      for (const r of q.runs) if (r.env === undefined) r.env = env;
      queueChain(q.runs, typeof q.after === 'number' ? q.after : undefined, then);
    } else if (q.t === 'e' && typeof q.id === 'number') {
      if (q.env === null) envBases.delete(q.id); else envBases.set(q.id, q.env);
    } else if (q.t === 'x') {
      withdraw(q.id);
    } else if (q.t === 'h' && typeof q.id === 'number') {
      startHost(q);
    } else if (q.t === 'q') {
      send({ t: 'q', anon: anonBytes(), baseline, collections, grown: grownSent });
    } else if (q.t === 'k') {
      const then = thens.get(q.id);
      if (then) then.stopped = true;
      const pid = byId.get(q.id);
      const run = pid === undefined ? undefined : runs.get(pid);
      if (run && run.stop) run.stop();
    }
  }
});
input.on('end', shutdown);
input.on('close', shutdown);
input.on('error', shutdown);
output.on('error', shutdown);
// The host is not in the terminal's process group, but a signal sent to it by name ends the
// hooks with it rather than orphaning them.
process.on('SIGTERM', shutdown);
process.on('SIGHUP', shutdown);
process.on('SIGINT', () => {});
// One run through the hook path before 'ready' (see the top of this file): /bin/sh, as every
// hook's shell on Unix; a spawn error here only means the warm-up did not happen.
function warmUp() {
  const q = { id: WARM_ID, file: '/bin/sh', args: ['-c', ':'], cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'pipe'], input: '{}',
    stdoutMax: 1024, stderrMax: 1024, timeoutMs: 5000, graceMs: 500, reapMs: 1000, drainMs: 1000, shutdownMs: 250 };
  return runHook(q).catch(() => false);
}
// A native spawner that cannot start even this (a sandbox that refuses its clone, say) is
// dropped before any request comes, and the warm-up done again the handles' way.
warmUp().then((r) => {
  if (native === null || (r && r.ok)) return;
  native = null;
  process.removeListener('SIGCHLD', reapNative);
  return warmUp();
}).then(() => {
  send({ t: 'ready', spawner: native !== null ? 'native' : handles !== null ? 'handles' : 'child_process', pid: process.pid });
});
`;
