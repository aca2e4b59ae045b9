// The SSE clients of runtime-api.bench.mjs, run in a worker thread (see there): `count`
// streams over `threads`; each event's latency is its receipt time − its created_at.
import { parentPort, workerData } from 'node:worker_threads';

const { url, threads, count, headers } = workerData;
const latencies = [];
let delivered = 0;
const abort = new AbortController();

let connected = 0;

async function follow(threadId) {
  try {
    const res = await fetch(`${url}/v1/threads/${threadId}/events`, { headers, signal: abort.signal });
    if (++connected === count) parentPort.postMessage('ready');
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = frame.split('\n').find((l) => l.startsWith('data: '));
        if (!data || (!frame.includes('\nid: ') && !frame.startsWith('id: '))) continue;
        const env = JSON.parse(data.slice(6));
        latencies.push(Date.now() - Date.parse(env.created_at));
        delivered++;
      }
    }
  } catch {
    // stopped
  }
}

const streams = Array.from({ length: count }, (_, i) => follow(threads[i % threads.length]));
parentPort.once('message', async () => {
  abort.abort();
  await Promise.all(streams);
  parentPort.postMessage({ latencies, delivered });
});
