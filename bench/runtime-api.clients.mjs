// The SSE clients of runtime-api.bench.mjs, run in a worker thread (see there): `count`
// streams over `threads`; each event's latency is its receipt time − its created_at.
import { parentPort, workerData } from 'node:worker_threads';
import { sseEnvelopes } from './util.mjs';

const { url, threads, count, headers } = workerData;
const latencies = [];
let delivered = 0;
const abort = new AbortController();

let connected = 0;

async function follow(threadId) {
  try {
    const res = await fetch(`${url}/v1/threads/${threadId}/events`, { headers, signal: abort.signal });
    if (++connected === count) parentPort.postMessage('ready');
    for await (const { envelope, stored } of sseEnvelopes(res)) {
      if (!stored) continue;
      latencies.push(Date.now() - Date.parse(envelope.created_at));
      delivered++;
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
