// runtime-api: 8 threads running turns at once (each tool call crosses a real tool_call_before
// gate hook), 50 SSE clients following them. Measures events/s, engine → client event latency
// (p50/p99, against a same-run /health round trip) with the store at synchronous=FULL (the
// baseline) and NORMAL (the server's default), memory after 10,000 events, and after 1,000
// client connects/disconnects (no growth, no leftover subscription).
//
// The 50 clients run in a worker thread, as clients run in processes of their own: reading
// 50 streams in the server's own event loop would queue every event behind the clients'
// parsing and measure that instead of the server. Each turn's end is awaited through the
// server's event hub (no polling of the store).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ReplayProvider } from '@codewhale/engine';
import { RuntimeStore, startServer } from '@codewhale/runtime-api';
import { round } from './util.mjs';

const THREADS = 8;
const CLIENTS = 50;
const TARGET_EVENTS = 10_000;
const TOOL_CALLS_PER_TURN = 4;
const CONNECTS = 1_000;
const TOKEN = 'bench-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const mb = (n) => round(n / 1024 / 1024, 1);
// A real collection before each memory reading (bench.mjs runs without --expose-gc).
v8.setFlagsFromString('--expose_gc');
const collect = vm.runInNewContext('gc');
const gc = () => {
  collect();
  collect();
};
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

function script() {
  const lines = [];
  for (let t = 0; t < 400; t++) {
    for (let i = 0; i < TOOL_CALLS_PER_TURN; i++) lines.push(JSON.stringify({ tool_calls: [{ name: 'read', arguments: { path: 'file.txt' } }] }));
    lines.push(JSON.stringify({ text: `turn ${t} done` }));
  }
  return lines.join('\n');
}

/**
 * The SSE clients, in a worker thread: `count` streams over `threads`, each event's latency
 * (receipt time − created_at) recorded; they stop on a message and send back what they saw.
 */
function startClients(url, threads, count) {
  const worker = new Worker(new URL('./runtime-api.clients.mjs', import.meta.url), { workerData: { url, threads, count, headers: H } });
  const ready = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    ready,
    async stop() {
      const result = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}

/** Commits per second of the store alone (one appended event per commit), for each synchronous level. */
function commitRate(dir, synchronous) {
  const store = RuntimeStore.open(join(dir, `commit-${synchronous}.db`), { synchronous });
  const thread = store.createThread({ workspace: dir, mode: 'work', posture: 'ask', model: null, sessionId: null });
  const { turn } = store.startTurn(thread.id, { prompt: 'x', mode: 'work', posture: 'ask', model: null });
  const item = store.startItem(thread.id, turn.id, 'agent_message', { summary: '' });
  const n = 1_000;
  const t = performance.now();
  for (let i = 0; i < n; i++) store.appendDelta(item.id, 'x');
  const rate = n / ((performance.now() - t) / 1000);
  store.close();
  return rate;
}

/**
 * One run of the load (8 threads, 50 SSE clients, ~10,000 events) on a server whose store uses
 * `synchronous`; `full` adds the memory and connect/disconnect rows.
 */
async function measure(root, synchronous, full) {
  const home = join(root, `home-${synchronous}`);
  const ws = join(root, 'ws');
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'file.txt'), 'hello\n'.repeat(20));
  writeFileSync(join(home, 'config.toml'), '[hooks]\n[[hooks.hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "true"\n');
  const text = script();
  const server = await startServer({
    port: 0,
    workspace: ws,
    synchronous,
    env: { CODEWHALE_HOME: home, CODEWHALE_RUNTIME_TOKEN: TOKEN, PATH: process.env.PATH },
    provider: () => ReplayProvider.fromText(text),
  });
  const rows = [];
  const tag = `synchronous=${synchronous}${synchronous === 'FULL' ? ' (baseline)' : ''}`;
  try {
    const call = async (path, body) => (await fetch(server.url + path, body === undefined ? { headers: H } : { method: 'POST', headers: H, body: JSON.stringify(body) })).json();

    // Baseline: a /health round trip on the same server.
    const health = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await (await fetch(`${server.url}/health`)).text();
      health.push(performance.now() - t);
    }
    health.sort((a, b) => a - b);

    const threads = [];
    for (let i = 0; i < THREADS; i++) threads.push((await call('/v1/threads', { posture: 'full_access' })).thread.id);
    gc();
    const memStart = process.memoryUsage();
    const clients = startClients(server.url, threads, CLIENTS);
    await clients.ready;
    const startSeq = server.store.headSeq();
    const t0 = performance.now();
    let turns = 0;
    await Promise.all(
      threads.map(async (id) => {
        while (server.store.headSeq() - startSeq < TARGET_EVENTS && performance.now() - t0 < 150_000) {
          let ended;
          const completed = new Promise((resolve) => (ended = resolve));
          let turnId = null;
          const seen = new Set();
          const unsubscribe = server.hub.subscribe(id, (e) => {
            if (e.event !== 'turn.completed') return;
            if (turnId === null) seen.add(e.turnId);
            else if (e.turnId === turnId) ended();
          });
          const posted = await call(`/v1/threads/${id}/turns`, { prompt: 'read the file' });
          if (!posted.turn) throw new Error(JSON.stringify(posted));
          const { turn } = posted;
          turnId = turn.id;
          if (seen.has(turnId) || server.store.getTurn(turnId).status !== 'in_progress') ended();
          await completed;
          unsubscribe();
          turns++;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const events = server.store.headSeq() - startSeq;
    await new Promise((r) => setTimeout(r, 300));
    const { latencies, delivered } = await clients.stop();
    gc();
    const memAfterEvents = process.memoryUsage();
    latencies.sort((a, b) => a - b);
    rows.push({ name: `runtime-api: /health round trip p50, ${tag}`, value: round(pct(health, 0.5), 2), unit: 'ms', note: `p99 ${round(pct(health, 0.99), 2)} ms` });
    rows.push({
      name: `runtime-api: events stored per second, ${tag}`,
      value: round(events / seconds, 0),
      unit: 'events/s',
      note: `${events} events, ${turns} turns × ${TOOL_CALLS_PER_TURN} gated tool calls, ${THREADS} threads, ${round(seconds, 1)} s`,
    });
    rows.push({ name: `runtime-api: events delivered per second, ${tag}`, value: round(delivered / seconds, 0), unit: 'events/s', note: `${CLIENTS} SSE clients, in a worker thread` });
    rows.push({ name: `runtime-api: event latency p50 (engine → client), ${tag}`, value: pct(latencies, 0.5), unit: 'ms', note: `created_at has ms resolution; includes the commit` });
    rows.push({
      name: `runtime-api: event latency p99 (engine → client), ${tag}`,
      value: pct(latencies, 0.99),
      unit: 'ms',
      note: `${round(pct(latencies, 0.99) / Math.max(pct(health, 0.5), 0.01), 1)}× the /health p50; goal ≤ 20 ms`,
    });
    if (!full) return { rows, p99: pct(latencies, 0.99), p50: pct(latencies, 0.5) };
    rows.push({
      name: `runtime-api: heap after ${events} events`,
      value: mb(memAfterEvents.heapUsed),
      unit: 'MiB',
      note: `start ${mb(memStart.heapUsed)} MiB; rss ${mb(memAfterEvents.rss)} MiB (with the clients' worker gone); after a full GC`,
    });

    // 1,000 connects and disconnects: nothing may stay behind.
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < CONNECTS; i++) {
      const ac = new AbortController();
      const res = await fetch(`${server.url}/v1/threads/${threads[i % THREADS]}/events?since_seq=${server.store.headSeq()}`, { headers: H, signal: ac.signal });
      const reader = res.body.getReader();
      await reader.read();
      ac.abort();
      await reader.closed.catch(() => {});
    }
    for (let i = 0; i < 100 && server.hub.subscriberCount() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    gc();
    const after = process.memoryUsage().heapUsed;
    rows.push({
      name: 'runtime-api: heap growth after 1,000 connects/disconnects',
      value: mb(after - before),
      unit: 'MiB',
      note: `${server.hub.subscriberCount()} subscriptions left; heap ${mb(before)} → ${mb(after)} MiB`,
    });
    return { rows, p99: pct(latencies, 0.99), p50: pct(latencies, 0.5) };
  } finally {
    await server.close();
  }
}

export async function run() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-bench-api-')));
  const rows = [];
  try {
    const full = commitRate(root, 'FULL');
    const normal = commitRate(root, 'NORMAL');
    rows.push({ name: 'runtime-api: store commits/s, synchronous=FULL (baseline)', value: round(full, 0), unit: 'commits/s', note: 'one event per commit, no server' });
    rows.push({ name: 'runtime-api: store commits/s, synchronous=NORMAL', value: round(normal, 0), unit: 'commits/s', note: `${round(normal / full, 1)}× FULL` });
    // The same load on the old default (FULL, the baseline) and the server's default (NORMAL), in this run.
    const base = await measure(root, 'FULL', false);
    const cur = await measure(root, 'NORMAL', true);
    rows.push(...base.rows, ...cur.rows);
    rows.push({ name: 'runtime-api: event latency p99, NORMAL / FULL', value: round(cur.p99 / Math.max(base.p99, 1), 2), unit: '×', note: `p50 ${cur.p50} vs ${base.p50} ms` });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}
