import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAIServer, type FakeOpenAIServerOptions, startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible.js';
import { type ModelRequest, type ModelStreamEvent, ProviderError } from './types.js';

const KEY = 'sk-test-SECRET-0123456789abcdef';
let server: FakeOpenAIServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(options: FakeOpenAIServerOptions): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(options);
  return server;
}

function provider(s: FakeOpenAIServer, options: Partial<OpenAICompatibleProviderOptions> = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({ id: 'test', baseUrl: s.url, model: 'fake-model', ...options });
}

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'fake-model',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  ...overrides,
});

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error: ProviderError | null }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
    return { events, error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
}

const textOf = (events: readonly ModelStreamEvent[], type: 'text' | 'reasoning'): string => events.map((e) => (e.type === type ? e.delta : '')).join('');

describe('OpenAICompatibleProvider (against the fake server, real HTTP)', () => {
  it('streams reasoning, text, tool calls split across chunks, usage with cache hit/miss, and one finish', async () => {
    const s = await start({
      turns: [
        {
          reasoning: 'The user wants the files listed — über-simple 🐋.',
          text: 'Let me look at the directory for you. Ünïcödé ✓',
          tool_calls: [
            { id: 'call_a', name: 'bash', arguments: { command: 'ls -la', note: 'größe 🐳' } },
            { name: 'read', arguments: { path: 'README.md' } },
          ],
          interleaveToolCalls: true,
          // Slower than the transport's batching (BATCH_MS), so the text arrives in several reads.
          chunkDelayMs: 25,
          usage: { prompt_tokens: 900, completion_tokens: 120, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 260, completion_tokens_details: { reasoning_tokens: 40 } },
        },
      ],
    });
    const { events, error } = await collect(provider(s).stream(request(), {}));
    expect(error).toBeNull();
    expect(textOf(events, 'reasoning')).toBe('The user wants the files listed — über-simple 🐋.');
    expect(textOf(events, 'text')).toBe('Let me look at the directory for you. Ünïcödé ✓');
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls).toEqual([
      { id: 'call_a', name: 'bash', arguments: JSON.stringify({ command: 'ls -la', note: 'größe 🐳' }) },
      { id: 'call_fake_1_2', name: 'read', arguments: '{"path":"README.md"}' },
    ]);
    const tail = events.filter((e) => e.type === 'tool_call' || e.type === 'usage' || e.type === 'finish').map((e) => e.type);
    expect(tail).toEqual(['tool_call', 'tool_call', 'usage', 'finish']);
    expect(events.at(-2)).toEqual({
      type: 'usage',
      usage: { inputTokens: 900, outputTokens: 120, promptCacheHitTokens: 640, promptCacheMissTokens: 260, promptCacheWriteTokens: null, reasoningTokens: 40 },
    });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('accepts CRLF and CR framed streams', async () => {
    const s = await start({
      turns: [
        { text: 'crlf é', lineEnding: '\r\n' },
        { text: 'cr é', lineEnding: '\r' },
      ],
    });
    const p = provider(s);
    expect(textOf((await collect(p.stream(request(), {}))).events, 'text')).toBe('crlf é');
    expect(textOf((await collect(p.stream(request(), {}))).events, 'text')).toBe('cr é');
  });

  it('sends the Chat Completions body: tools, tool_calls replay, tool results, stream options', async () => {
    const s = await start({ turns: [{ text: 'ok' }] });
    await collect(
      provider(s, { replayReasoning: false }).stream(
        request({
          temperature: 0.2,
          maxTokens: 256,
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'list files' },
            { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'bash', arguments: '{"command":"ls"}' }], reasoningContent: 'thinking' },
            { role: 'tool', toolCallId: 'call_1', content: 'a.txt\nb.txt' },
          ],
          tools: [{ name: 'bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
        }),
        {},
      ),
    );
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toEqual({
      model: 'fake-model',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.txt\nb.txt' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'bash', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } } }],
      temperature: 0.2,
      max_tokens: 256,
    });
  });

  it('omits `tools` when there are none', async () => {
    const s = await start({ turns: [{ text: 'ok' }] });
    await collect(provider(s).stream(request(), {}));
    expect(s.requests[0]).not.toHaveProperty('tools');
  });

  it('DeepSeek thinking mode: replays reasoning_content and puts a placeholder on tool-call messages without one', async () => {
    const s = await start({ turns: [{ text: 'ok' }] });
    await collect(
      provider(s, { id: 'deepseek' }).stream(
        request({
          messages: [
            { role: 'user', content: 'go' },
            { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: '{}' }] },
            { role: 'tool', toolCallId: 'c1', content: 'x' },
            { role: 'assistant', content: null, reasoningContent: 'because', toolCalls: [{ id: 'c2', name: 'read', arguments: '{}' }] },
            { role: 'tool', toolCallId: 'c2', content: 'y' },
            { role: 'assistant', content: 'done' },
          ],
        }),
        {},
      ),
    );
    const messages = (s.requests[0] as { messages: Record<string, unknown>[] }).messages;
    expect(messages[1]).toMatchObject({ role: 'assistant', reasoning_content: '' });
    expect(messages[3]).toMatchObject({ role: 'assistant', reasoning_content: 'because' });
    expect(messages[5]).not.toHaveProperty('reasoning_content');
  });

  it('sends Authorization: Bearer only when a key is set', async () => {
    const s = await start({ turns: [{ text: 'a' }, { text: 'b' }] });
    await collect(provider(s, { apiKey: KEY }).stream(request(), {}));
    await collect(provider(s).stream(request(), {}));
    expect(s.received[0]?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(s.received[1]?.headers).not.toHaveProperty('authorization');
    expect(s.received[0]?.path).toBe('/v1/chat/completions');
  });

  it('401 → authentication, not retryable, without the key in the message', async () => {
    const s = await start({ apiKey: 'the-right-key', turns: [{ text: 'never' }] });
    const { error } = await collect(provider(s, { apiKey: KEY, apiKeyEnv: 'DEEPSEEK_API_KEY' }).stream(request(), {}));
    expect(error).toMatchObject({ category: 'authentication', retryable: false, status: 401 });
    expect(error?.message).toContain('HTTP 401');
    expect(error?.message).toContain('Incorrect API key provided');
    expect(error?.message).toContain('DEEPSEEK_API_KEY');
    expect(error?.message).not.toContain(KEY);
  });

  it('never echoes the key even when the server does', async () => {
    const s = await start({ turns: [{ status: 403, body: { error: { message: `key ${KEY} may not use this model; also sk-proj-abcd****wxyz` } } }] });
    const { error } = await collect(provider(s, { apiKey: KEY }).stream(request(), {}));
    expect(error).toMatchObject({ category: 'authorization', retryable: false });
    expect(error?.message).not.toContain(KEY);
    expect(error?.message).not.toContain('abcd');
    expect(error?.message).toContain('[redacted]');
  });

  it('429 with Retry-After → rate_limit, retryable, retryAfterSecs', async () => {
    const s = await start({ turns: [{ status: 429, retryAfter: 7, body: { error: { message: 'Rate limit reached' } } }] });
    const { error } = await collect(provider(s).stream(request(), {}));
    expect(error).toMatchObject({ category: 'rate_limit', retryable: true, status: 429, retryAfterSecs: 7 });
    expect(error?.message).toMatch(/HTTP 429.*Rate limit reached/);
  });

  it('500 → retryable network; 400 and 404 → invalid_input; 402 → budget; plain-text bodies are quoted briefly', async () => {
    const s = await start({
      turns: [
        { status: 500 },
        { status: 400, body: { error: { message: 'messages[3]: reasoning_content is required' } } },
        { status: 404, body: 'model not found' },
        { status: 402, body: { error: { message: 'Insufficient Balance' } } },
        { status: 502, body: '<html><body>Bad gateway</body></html>' },
      ],
    });
    const p = provider(s);
    expect((await collect(p.stream(request(), {}))).error).toMatchObject({ category: 'network', retryable: true, status: 500 });
    const bad = (await collect(p.stream(request(), {}))).error;
    expect(bad).toMatchObject({ category: 'invalid_input', retryable: false, status: 400 });
    expect(bad?.message).toContain('reasoning_content is required');
    const missing = (await collect(p.stream(request(), {}))).error;
    expect(missing).toMatchObject({ category: 'invalid_input', retryable: false, status: 404 });
    expect(missing?.message).toContain('model not found');
    expect((await collect(p.stream(request(), {}))).error).toMatchObject({ category: 'budget', retryable: false });
    const gateway = (await collect(p.stream(request(), {}))).error;
    expect(gateway).toMatchObject({ category: 'network', retryable: true, status: 502 });
    expect(gateway?.message).not.toContain('<html>');
  });

  it('a stream dropped mid-way → retryable network (partial output was streamed first)', async () => {
    const s = await start({ turns: [{ text: 'this reply will be cut off somewhere in the middle', dropAfterChunks: 3 }] });
    const { events, error } = await collect(provider(s).stream(request(), {}));
    expect(error).toMatchObject({ category: 'network', retryable: true });
    expect(events.some((e) => e.type === 'finish')).toBe(false);
  });

  it('a stream that ends without [DONE] or finish_reason → retryable network', async () => {
    const s = await start({ turns: [{ text: 'incomplete', omitDone: true, omitFinish: true, usage: null }] });
    const { error } = await collect(provider(s).stream(request(), {}));
    expect(error).toMatchObject({ category: 'network', retryable: true });
    expect(error?.message).toMatch(/ended before the model finished/);
  });

  it('a stream that ends after finish_reason but without [DONE] still finishes', async () => {
    const s = await start({ turns: [{ text: 'fine', omitDone: true }] });
    const { events, error } = await collect(provider(s).stream(request(), {}));
    expect(error).toBeNull();
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('no chunk for idleTimeoutMs → retryable timeout', async () => {
    const s = await start({ turns: [{ text: 'stalls after the first frame', stallMs: 5_000 }] });
    const started = Date.now();
    const { error } = await collect(provider(s, { idleTimeoutMs: 80 }).stream(request(), {}));
    expect(error).toMatchObject({ category: 'timeout', retryable: true });
    expect(error?.message).toContain('80 ms');
    // Well before the 5 s stall ends (liveness, not speed).
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('no response headers within openTimeoutMs → retryable timeout', async () => {
    const s = await start({ turns: [{ text: 'late', delayMs: 2_000 }] });
    const { error } = await collect(provider(s, { openTimeoutMs: 60 }).stream(request(), {}));
    expect(error).toMatchObject({ category: 'timeout', retryable: true });
  });

  it('abort mid-stream → cancelled, not retryable', async () => {
    const s = await start({ turns: [{ text: 'a long answer streamed slowly, piece by piece, forever', chunkDelayMs: 40 }] });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    let caught: unknown = null;
    try {
      for await (const e of provider(s).stream(request(), { signal: controller.signal })) {
        events.push(e);
        if (e.type === 'text') controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    expect(caught).toMatchObject({ category: 'cancelled', retryable: false });
    expect(events.filter((e) => e.type === 'text')).toHaveLength(1);
  });

  it('abort before the headers arrive → cancelled promptly; an already-aborted signal → cancelled at once', async () => {
    const s = await start({ turns: [{ text: 'late', delayMs: 3_000 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    expect((await collect(provider(s).stream(request(), { signal: controller.signal }))).error).toMatchObject({ category: 'cancelled' });
    // Well before the 3 s delay of the headers (liveness, not speed).
    expect(Date.now() - started).toBeLessThan(2_500);
    expect((await collect(provider(s).stream(request(), { signal: AbortSignal.abort() }))).error).toMatchObject({ category: 'cancelled' });
  });

  it('connection refused → retryable network naming the host', async () => {
    const s = await start({ turns: [] });
    const url = s.url;
    await s.close();
    server = null;
    const { error } = await collect(new OpenAICompatibleProvider({ id: 't', baseUrl: url, model: 'm' }).stream(request(), {}));
    expect(error).toMatchObject({ category: 'network', retryable: true });
    expect(error?.message).toMatch(/could not reach 127\.0\.0\.1:\d+/);
  });

  it('an error object inside the stream is classified', async () => {
    const s = await start({ turns: [{ text: 'partial', streamError: { message: 'Rate limit exceeded mid-stream', type: 'rate_limit_error' } }] });
    const { error } = await collect(provider(s).stream(request(), {}));
    expect(error).toMatchObject({ category: 'rate_limit', retryable: true });
    expect(error?.message).toContain('Rate limit exceeded mid-stream');
  });

  it('a server that ignores stream:true and answers with one JSON completion still works', async () => {
    const fetchJson: typeof fetch = async () =>
      new Response(
        JSON.stringify({
          choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'hi', tool_calls: [{ id: 'x', type: 'function', function: { name: 'read', arguments: '{}' } }] } }],
          usage: { prompt_tokens: 3, completion_tokens: 2 },
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    const p = new OpenAICompatibleProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', fetch: fetchJson });
    const { events } = await collect(p.stream(request(), {}));
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_call', 'usage', 'finish']);
  });

  it('a chunk that is not JSON → retryable parse error', async () => {
    const body = 'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\ndata: {oops\n\n';
    const fetchBad: typeof fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const p = new OpenAICompatibleProvider({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', fetch: fetchBad });
    const { events, error } = await collect(p.stream(request(), {}));
    expect(events).toEqual([{ type: 'text', delta: 'a' }]);
    expect(error).toMatchObject({ category: 'parse', retryable: true });
  });

  it('uses max_completion_tokens for api.openai.com and never shows the key in toString/JSON', async () => {
    const sent: { url: string; body: Record<string, unknown> }[] = [];
    const capture: typeof fetch = async (url, init) => {
      sent.push({ url: String(url), body: JSON.parse(String(init?.body)) as Record<string, unknown> });
      return new Response('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n', {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    };
    const p = new OpenAICompatibleProvider({ id: 'openai', baseUrl: 'https://api.openai.com/v1/', model: 'gpt-5-mini', apiKey: KEY, fetch: capture });
    const { events } = await collect(p.stream(request({ model: '', maxTokens: 100 }), {}));
    expect(events).toEqual([{ type: 'finish', reason: 'stop' }]);
    expect(sent[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(sent[0]?.body).toMatchObject({ model: 'gpt-5-mini', max_completion_tokens: 100 });
    expect(sent[0]?.body).not.toHaveProperty('max_tokens');
    expect(p.baseUrl).toBe('https://api.openai.com/v1');
    expect(String(p)).not.toContain(KEY);
    expect(JSON.stringify(p)).not.toContain(KEY);
    expect(JSON.stringify(p)).toContain('"hasApiKey":true');
  });
});
