import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RuntimeStore } from '../store/runtime-store.js';
import type { StoredEvent } from '../store/records.js';
import { envelopeText, type EventHub } from './event-hub.js';

export interface SseOptions {
  /** A comment line this often (default 15 s). */
  readonly heartbeatMs?: number;
  /** Live events buffered for a slow client before its stream is closed (it resumes from its cursor). */
  readonly maxQueued?: number;
  /** Replay page size. */
  readonly replayPage?: number;
}

/** Open streams (tests and the benchmark check that disconnects release them). */
export const openStreams = { count: 0 };

/**
 * One thread's events (`threadId` null: every thread's) as SSE: `server.connected`, then (when the cursor is older than what is
 * kept) one `stale_cursor`, then every stored event after the cursor, then live events — with
 * no gap and no repeat, because the subscription starts before the replay and live events at or
 * below the last replayed seq are dropped. Every event carries `id: <seq>`.
 *
 * Cleanup is one idempotent function bound to both the request's abort signal and the
 * stream's abort, so a client that goes away releases its subscription and timer even when
 * one of the two never fires.
 */
export function streamThreadEvents(c: Context, deps: { store: RuntimeStore; hub: EventHub }, threadId: string | null, cursor: number, options: SseOptions = {}): Response {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxQueued = options.maxQueued ?? 10_000;
  const page = options.replayPage ?? 500;
  c.header('Cache-Control', 'no-cache, no-transform');
  c.header('X-Accel-Buffering', 'no');
  c.header('X-Content-Type-Options', 'nosniff');
  return streamSSE(c, async (stream) => {
    openStreams.count++;
    const queue: StoredEvent[] = [];
    let wake: (() => void) | null = null;
    let closed = false;
    let overflow = false;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const unsubscribe = deps.hub.subscribe(threadId, (e) => {
      if (queue.length >= maxQueued) overflow = true;
      else queue.push(e);
      notify();
    });
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      openStreams.count--;
      unsubscribe();
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      queue.length = 0;
      notify();
    };
    c.req.raw.signal.addEventListener('abort', cleanup, { once: true });
    stream.onAbort(cleanup);
    let ended!: () => void;
    const unhold = deps.hub.holdStream(notify, new Promise<void>((r) => (ended = r)));
    try {
      const pruned = threadId === null ? deps.store.prunedThroughSeq() : (deps.store.getThread(threadId)?.prunedThroughSeq ?? 0);
      await stream.writeSSE({ event: 'server.connected', data: JSON.stringify({ thread_id: threadId, head_seq: deps.store.headSeq(), cursor }) });
      let last = cursor;
      if (cursor < pruned) {
        await stream.writeSSE({
          event: 'stale_cursor',
          data: JSON.stringify({
            thread_id: threadId,
            cursor,
            oldest_available_after: pruned,
            hint: threadId === null ? 're-read the threads you follow, then follow from the next event' : 're-read the thread and its items, then follow from the next event',
          }),
        });
        // One thread's log is complete after its pruned seq; the global log may still hold
        // other threads' events between the cursor and it, so it goes on from the cursor.
        if (threadId !== null) last = pruned;
      }
      heartbeat = setInterval(() => {
        if (!closed) void stream.write(': heartbeat\n\n');
      }, heartbeatMs);
      for (;;) {
        if (closed) return;
        const batch = deps.store.eventsSince(threadId, last, page);
        for (const e of batch) {
          if (closed) return;
          await stream.writeSSE({ id: String(e.seq), event: e.event, data: envelopeText(e) });
          last = e.seq;
        }
        if (batch.length < page) break;
      }
      while (!closed) {
        if (overflow) return; // the client resumes from its Last-Event-ID: nothing is skipped silently
        const e = queue.shift();
        if (!e && deps.hub.ended) {
          // Shutdown: everything committed was delivered; say so and end the response cleanly.
          await stream.writeSSE({
            event: 'server.stopping',
            data: JSON.stringify({ thread_id: threadId, last_seq: last, hint: 'the server is stopping; reconnect with Last-Event-ID when it is back' }),
          });
          return;
        }
        if (!e) {
          await new Promise<void>((r) => {
            wake = r;
          });
          continue;
        }
        if (e.seq <= last) continue;
        await stream.writeSSE({ id: String(e.seq), event: e.event, data: envelopeText(e) });
        last = e.seq;
        if (stream.aborted || stream.closed) return;
      }
    } finally {
      cleanup();
      unhold();
      ended();
    }
  });
}
