import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAIServer, startFakeOpenAIServer } from './fake-openai-server.js';

let server: FakeOpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** POST raw, collecting the body chunks exactly as they arrived. */
function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; chunks: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const dataFrames = (text: string): string[] =>
  text
    .split(/\r\n\r\n|\n\n|\r\r/)
    .filter((f) => f.startsWith('data: '))
    .map((f) => f.slice(6));

describe('startFakeOpenAIServer', () => {
  it('listens on 127.0.0.1 with a /v1 base URL and streams the Chat Completions wire', async () => {
    server = await startFakeOpenAIServer({ turns: [{ text: 'héllo wörld, this is long enough to split', tool_calls: [{ name: 'bash', arguments: { command: 'echo ✓' } }] }] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await post(`${server.url}/chat/completions`, { model: 'm1', messages: [{ role: 'user', content: 'hi' }], stream: true });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const frames = dataFrames(Buffer.concat(res.chunks).toString('utf8'));
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f) as { model: string; choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown });
    expect(chunks.every((c) => c.model === 'm1')).toBe(true);
    const text = chunks.map((c) => (c.choices[0]?.delta['content'] as string | undefined) ?? '').join('');
    expect(text).toBe('héllo wörld, this is long enough to split');
    const argFragments = chunks.flatMap((c) => ((c.choices[0]?.delta['tool_calls'] as { function: { arguments?: string } }[] | undefined) ?? []).map((t) => t.function.arguments ?? ''));
    expect(argFragments.filter((a) => a !== '').length).toBeGreaterThanOrEqual(3);
    expect(argFragments.join('')).toBe('{"command":"echo ✓"}');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) as number, completion_tokens: expect.any(Number) as number } });
  });

  it('splits text into frames of deltaChars code points (default 8)', async () => {
    const text = 'wörds 🐳 of a streamed answer, in pieces';
    server = await startFakeOpenAIServer({ turns: [{ text }, { text, deltaChars: 7 }] });
    for (const size of [8, 7]) {
      const res = await post(`${server.url}/chat/completions`, { model: 'm', messages: [], stream: true });
      const pieces = dataFrames(Buffer.concat(res.chunks).toString('utf8'))
        .filter((f) => f !== '[DONE]')
        .map((f) => (JSON.parse(f) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
        .filter((p) => p !== '');
      expect(pieces.join('')).toBe(text);
      expect(pieces.slice(0, -1).every((p) => Array.from(p).length === size)).toBe(true);
    }
  });

  it('reports the end of each streamed reply by its turn index', async () => {
    const ends: number[] = [];
    server = await startFakeOpenAIServer({
      turns: [{ text: 'one' }, { status: 500 }, { tool_calls: [{ name: 'bash', arguments: { command: 'true' } }] }],
      onReplyEnd: (index) => ends.push(index),
    });
    await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    expect(ends).toEqual([0]);
    await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    // a fault turn is not a streamed reply
    expect(ends).toEqual([0, 2]);
  });

  it('records every request body and its headers', async () => {
    server = await startFakeOpenAIServer({ turns: [{ text: 'a' }, { text: 'b' }] });
    await post(`${server.url}/chat/completions`, { model: 'm', messages: [{ role: 'tool', tool_call_id: 'c1', content: 'result text' }] }, { authorization: 'Bearer k' });
    await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    expect(server.requests).toEqual([
      { model: 'm', messages: [{ role: 'tool', tool_call_id: 'c1', content: 'result text' }] },
      { model: 'm', messages: [] },
    ]);
    expect(server.received[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', headers: { authorization: 'Bearer k' } });
    expect(server.turnsServed).toBe(2);
  });

  it('plays faults: status with body and Retry-After', async () => {
    server = await startFakeOpenAIServer({
      turns: [
        { status: 429, retryAfter: 3 },
        { status: 500, body: 'plain failure' },
      ],
    });
    const limited = await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('3');
    expect(JSON.parse(Buffer.concat(limited.chunks).toString())).toEqual({ error: { message: 'fake 429', type: 'rate_limit_error', code: 429 } });
    const failed = await post(`${server.url}/chat/completions`, { model: 'm', messages: [] });
    expect([failed.status, Buffer.concat(failed.chunks).toString()]).toEqual([500, 'plain failure']);
  });

  it('enforces apiKey when configured, answers 400 when the script is used up, 404 elsewhere', async () => {
    server = await startFakeOpenAIServer({ apiKey: 'right', turns: [{ text: 'x' }] });
    expect((await post(`${server.url}/chat/completions`, { model: 'm', messages: [] }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(`${server.url}/chat/completions`, { model: 'm', messages: [] }, { authorization: 'Bearer right' })).status).toBe(200);
    const over = await post(`${server.url}/chat/completions`, { model: 'm', messages: [] }, { authorization: 'Bearer right' });
    expect(over.status).toBe(400);
    expect(Buffer.concat(over.chunks).toString()).toContain('no scripted turn left (the script had 1)');
    expect((await post(`${server.url}/nope`, {})).status).toBe(404);
    expect(server.requests).toHaveLength(3);
  });

  it('accepts a function choosing the turn from the request', async () => {
    server = await startFakeOpenAIServer({
      turns: (req, index) => ({ text: `turn ${index} saw ${(req.body as { messages: unknown[] }).messages.length} messages` }),
    });
    const res = await post(`${server.url}/chat/completions`, {
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
    });
    const frames = dataFrames(Buffer.concat(res.chunks).toString('utf8'));
    const text = frames
      .filter((f) => f !== '[DONE]')
      .map((f) => (JSON.parse(f) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toBe('turn 0 saw 2 messages');
  });

  it('close() ends stalled streams and stops listening', async () => {
    server = await startFakeOpenAIServer({ turns: [{ text: 'stalling', stallMs: 60_000 }] });
    const url = server.url;
    const pending = post(`${url}/chat/completions`, { model: 'm', messages: [] }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await server.close();
    server = null;
    await pending;
    // Far below the 60 s stall (liveness, not speed).
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(post(`${url}/chat/completions`, {})).rejects.toThrow();
  });
});
