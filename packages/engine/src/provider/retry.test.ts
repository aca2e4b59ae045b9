import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { OpenAICompatibleProvider } from './openai-compatible.js';
import { ReplayProvider } from './replay-provider.js';
import { type RetryEvent, type RetryStreamEvent, backoffDelayMs, streamWithRetry } from './retry.js';
import { type ModelProvider, type ModelRequest, type ModelStreamEvent, ProviderError } from './types.js';

let server: FakeOpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const request: ModelRequest = { model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function collect(stream: AsyncIterable<RetryStreamEvent>): Promise<{ events: RetryStreamEvent[]; error: ProviderError | null }> {
  const events: RetryStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
    return { events, error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
}

/** A sleep that records the delays and returns at once. */
function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

describe('streamWithRetry', () => {
  it('recovers after two 500s from a real server, with a retry event before each re-attempt', async () => {
    server = await startFakeOpenAIServer({ turns: [{ status: 500 }, { status: 500 }, { text: 'recovered' }] });
    const provider = new OpenAICompatibleProvider({ id: 'test', baseUrl: server.url, model: 'fake-model' });
    const { delays, sleep } = recordingSleep();
    const seen: RetryEvent[] = [];
    const { events, error } = await collect(streamWithRetry(provider, request, { sleep, onRetry: (e) => seen.push(e) }));
    expect(error).toBeNull();
    const retries = events.filter((e): e is RetryEvent => e.type === 'retry');
    expect(retries).toEqual([
      { type: 'retry', attempt: 1, delayMs: 500, category: 'network', message: expect.stringContaining('HTTP 500') as string, status: 500 },
      { type: 'retry', attempt: 2, delayMs: 1000, category: 'network', message: expect.stringContaining('HTTP 500') as string, status: 500 },
    ]);
    expect(seen).toEqual(retries);
    expect(delays).toEqual([500, 1000]);
    expect(events.map((e) => (e.type === 'text' ? e.delta : '')).join('')).toBe('recovered');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    server = await startFakeOpenAIServer({ turns: [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 500, body: { error: { message: 'last one' } } }, { text: 'too late' }] });
    const provider = new OpenAICompatibleProvider({ id: 'test', baseUrl: server.url, model: 'fake-model' });
    const { delays, sleep } = recordingSleep();
    const { events, error } = await collect(streamWithRetry(provider, request, { sleep, maxRetries: 3 }));
    expect(error).toMatchObject({ category: 'network', retryable: true, status: 500 });
    expect(error?.message).toContain('last one');
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(3);
    expect(delays).toEqual([500, 1000, 2000]);
    expect(server.requests).toHaveLength(4);
  });

  it('recovers from a dropped stream; the retry event separates the partial output', async () => {
    server = await startFakeOpenAIServer({ turns: [{ text: 'partial output that gets cut', dropAfterChunks: 2 }, { text: 'whole' }] });
    const provider = new OpenAICompatibleProvider({ id: 'test', baseUrl: server.url, model: 'fake-model' });
    const { sleep } = recordingSleep();
    const { events } = await collect(streamWithRetry(provider, request, { sleep }));
    const retryAt = events.findIndex((e) => e.type === 'retry');
    expect(retryAt).toBeGreaterThan(0);
    expect(
      events
        .slice(retryAt + 1)
        .map((e) => (e.type === 'text' ? e.delta : ''))
        .join(''),
    ).toBe('whole');
  });

  it('honours Retry-After, capped by maxRetryAfterMs', async () => {
    const provider = ReplayProvider.fromText(
      [
        '{"error": {"category": "rate_limit", "message": "slow down", "retry_after": 3}}',
        '{"error": {"category": "rate_limit", "message": "slow down more", "retry_after": 600}}',
        '{"text": "ok"}',
      ].join('\n'),
    );
    const { delays, sleep } = recordingSleep();
    const { error } = await collect(streamWithRetry(provider, request, { sleep }));
    expect(error).toBeNull();
    expect(delays).toEqual([3000, 60_000]);
    const capped = recordingSleep();
    const again = ReplayProvider.fromText('{"error": {"category": "rate_limit", "message": "x", "retry_after": 30}}\n{"text": "ok"}');
    await collect(streamWithRetry(again, request, { sleep: capped.sleep, maxRetryAfterMs: 5000 }));
    expect(capped.delays).toEqual([5000]);
  });

  it('does not retry a non-retryable error', async () => {
    const provider = ReplayProvider.fromText('{"error": {"category": "authentication", "message": "bad key"}}\n{"text": "never"}');
    const { events, error } = await collect(streamWithRetry(provider, request, { sleep: async () => undefined }));
    expect(error).toMatchObject({ category: 'authentication', retryable: false, message: 'bad key' });
    expect(events).toEqual([]);
    expect(provider.remaining).toBe(1);
  });

  it('maxRetries 0 disables retrying', async () => {
    const provider = ReplayProvider.fromText('{"error": {"category": "network", "message": "down"}}\n{"text": "x"}');
    const { error } = await collect(streamWithRetry(provider, request, { maxRetries: 0 }));
    expect(error).toMatchObject({ category: 'network' });
  });

  it('cancellation during the backoff wait throws `cancelled` promptly', async () => {
    const provider = ReplayProvider.fromText('{"error": {"category": "network", "message": "down"}}\n{"text": "x"}');
    const controller = new AbortController();
    const started = Date.now();
    const run = collect(streamWithRetry(provider, request, { signal: controller.signal, initialDelayMs: 10_000 }));
    setTimeout(() => controller.abort(), 20);
    const { events, error } = await run;
    expect(error).toMatchObject({ category: 'cancelled', retryable: false });
    expect(events.map((e) => e.type)).toEqual(['retry']);
    // Well before the 10 s retry delay (a wide margin: this is liveness, not speed).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(provider.remaining).toBe(1);
  });

  it('an already-aborted signal throws `cancelled` before any attempt', async () => {
    const provider = ReplayProvider.fromText('{"text": "x"}');
    const { error } = await collect(streamWithRetry(provider, request, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ category: 'cancelled' });
    expect(provider.requests).toHaveLength(0);
  });

  it('wraps a non-ProviderError as a non-retryable internal error', async () => {
    const broken: ModelProvider = {
      id: 'broken',
      model: 'm',
      // biome-ignore lint/correctness/useYield: a stream that fails before its first event
      async *stream(): AsyncGenerator<ModelStreamEvent> {
        throw new TypeError('boom');
      },
    };
    const { error } = await collect(streamWithRetry(broken, request, {}));
    expect(error).toMatchObject({ category: 'internal', retryable: false, message: 'broken: boom' });
  });

  it('backoffDelayMs grows by the factor and is capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffDelayMs(3, { initialDelayMs: 100, factor: 3, maxDelayMs: 500 })).toBe(500);
    expect(backoffDelayMs(2, { initialDelayMs: 100, factor: 3, maxDelayMs: 500 })).toBe(300);
  });
});
