import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplayProvider, chunkText } from './replay-provider.js';
import { ReplayScriptError, checkReplayScript, parseReplayScript } from './replay-script.js';
import { type ModelRequest, type ModelStreamEvent, ProviderError } from './types.js';
import { codePointCount } from './usage.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../test/fixtures/replay/${name}`, import.meta.url));
const request: ModelRequest = { model: 'replay', messages: [{ role: 'user', content: 'what is in here?' }], tools: [] };

async function play(p: ReplayProvider, signal?: AbortSignal): Promise<{ events: ModelStreamEvent[]; error: ProviderError | null }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of p.stream(request, signal ? { signal } : {})) events.push(e);
    return { events, error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
}

describe('parseReplayScript', () => {
  it('skips blank and // comment lines and keeps line numbers', () => {
    const turns = parseReplayScript('// header\n\n{"text": "a"}\r\n   // indented comment\n{"text": "b", "finish": "length"}\n', 'x.jsonl');
    expect(turns.map((t) => [t.line, t.text, t.finish])).toEqual([
      [3, 'a', null],
      [5, 'b', 'length'],
    ]);
  });

  it('serialises object arguments and keeps string arguments verbatim', () => {
    const [turn] = parseReplayScript('{"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}, {"id": "c9", "name": "read", "arguments": "{not json"}, {"name": "todo_write"}]}', 'x');
    expect(turn?.toolCalls).toEqual([
      { id: null, name: 'bash', arguments: '{"command":"ls"}' },
      { id: 'c9', name: 'read', arguments: '{not json' },
      { id: null, name: 'todo_write', arguments: '{}' },
    ]);
  });

  it('reports every malformed line with file and line number, and suggests keys', () => {
    let caught: unknown;
    try {
      parseReplayScript('{"text": "fine"}\n{"text": "unterminated"\n// c\n{"txt": "typo"}\n{"tool_calls": [{"arguments": {"x": 1}}], "finish": "done"}\n[1]', 'script.jsonl');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ReplayScriptError);
    const error = caught as ReplayScriptError;
    expect(error.code).toBe('replay_script_invalid');
    expect(error.issues.map((i) => i.line)).toEqual([2, 4, 5, 5, 6]);
    expect(error.message).toContain('script.jsonl:2: not valid JSON');
    expect(error.message).toContain('script.jsonl:4: unknown key `txt`; did you mean `text`?');
    expect(error.message).toContain('script.jsonl:5: `tool_calls[0].name` must be a non-empty string');
    expect(error.message).toMatch(/script\.jsonl:5: `finish` must be one of stop, tool_calls, length, content_filter, other, got string "done"/);
    expect(error.message).toContain('script.jsonl:6: expected a JSON object');
    expect(error.message).not.toMatch(/\n\s+at /); // no stack frames in the message
  });

  it('checks error turns', () => {
    const result = checkReplayScript('{"error": {"category": "ratelimit", "message": ""}}\n{"error": "boom"}', 'e.jsonl');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.message)).toEqual([
      expect.stringContaining('did you mean `rate_limit`?'),
      '`error.message` must be a non-empty string',
      expect.stringContaining('`error` must be an object'),
    ]);
  });

  it('defaults error retryability by category', () => {
    const turns = parseReplayScript(
      '{"error": {"category": "timeout", "message": "t"}}\n{"error": {"category": "invalid_input", "message": "i"}}\n{"error": {"category": "internal", "message": "x", "retryable": true}}',
      'x',
    );
    expect(turns.map((t) => t.error?.retryable)).toEqual([true, false, true]);
  });

  it('reads the invalid fixture with its line numbers', async () => {
    await expect(ReplayProvider.fromFile(fixture('invalid.jsonl'))).rejects.toMatchObject({
      name: 'ReplayScriptError',
      issues: [{ line: 3 }, { line: 5 }, { line: 6 }, { line: 6 }],
    });
  });
});

describe('ReplayProvider', () => {
  it('plays a script deterministically: reasoning, text in a few deltas, tool calls with ids, usage, finish', async () => {
    const a = await ReplayProvider.fromFile(fixture('shell-then-answer.jsonl'));
    const b = await ReplayProvider.fromFile(fixture('shell-then-answer.jsonl'));
    const first = await play(a);
    expect(first.error).toBeNull();
    expect(first.events).toEqual((await play(b)).events);
    const types = first.events.map((e) => e.type);
    expect(types.filter((t) => t === 'reasoning').length).toBeGreaterThan(1);
    expect(types.slice(-3)).toEqual(['tool_call', 'usage', 'finish']);
    expect(
      first.events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('Let me list the workspace.');
    expect(first.events.find((e) => e.type === 'tool_call')).toEqual({ type: 'tool_call', call: { id: 'call_1_1', name: 'bash', arguments: '{"command":"ls -1"}' } });
    expect(first.events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });

    const second = await play(a);
    expect(second.events.filter((e) => e.type === 'tool_call').map((e) => (e as { call: { id: string } }).call.id)).toEqual(['call_read_readme', 'call_2_2']);
    expect(second.events.find((e) => e.type === 'usage')).toEqual({
      type: 'usage',
      usage: { inputTokens: 1800, outputTokens: 40, promptCacheHitTokens: 1536, promptCacheMissTokens: 264, promptCacheWriteTokens: null, reasoningTokens: null },
    });
    const third = await play(a);
    expect(third.events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(a.turnsPlayed).toBe(3);
    expect(a.requests).toHaveLength(3);
  });

  it('estimates usage when the script gives none (≈ 4 characters per token)', async () => {
    const p = ReplayProvider.fromText('{"reasoning": "12345678", "text": "abcd"}');
    const usage = (await play(p)).events.find((e) => e.type === 'usage');
    expect(usage).toEqual({
      type: 'usage',
      usage: { inputTokens: 4, outputTokens: 3, promptCacheHitTokens: null, promptCacheMissTokens: null, promptCacheWriteTokens: null, reasoningTokens: 2 },
    });
  });

  it('fills only the missing counts of a partial usage object', async () => {
    const p = ReplayProvider.fromText('{"text": "abcdefgh", "usage": {"prompt_tokens": 500}}');
    const usage = (await play(p)).events.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ usage: { inputTokens: 500, outputTokens: 2 } });
  });

  it('throws a clear non-retryable invalid_input error when the script is used up', async () => {
    const p = await ReplayProvider.fromFile(fixture('hello.jsonl'));
    expect((await play(p)).error).toBeNull();
    const { error } = await play(p);
    expect(error).toMatchObject({ category: 'invalid_input', retryable: false });
    expect(error?.message).toBe(`replay script ${fixture('hello.jsonl')} has no more model turns: it had 1 turn, and the session asked for turn 2`);
  });

  it('an error turn streams its text, then throws its ProviderError', async () => {
    const p = ReplayProvider.fromText('{"text": "partial", "error": {"category": "network", "message": "dropped", "status": 502}}');
    const { events, error } = await play(p);
    expect(events).toEqual([{ type: 'text', delta: 'partial' }]);
    expect(error).toMatchObject({ category: 'network', retryable: true, status: 502, message: 'dropped' });
  });

  it('plays the rate-limited fixture with Retry-After', async () => {
    const p = await ReplayProvider.fromFile(fixture('rate-limited.jsonl'));
    expect((await play(p)).error).toMatchObject({ category: 'rate_limit', retryable: true, retryAfterSecs: 1, status: 429 });
    expect((await play(p)).error).toBeNull();
  });

  it('is cancellable during delay_ms and between chunks', async () => {
    const p = ReplayProvider.fromText('{"text": "late", "delay_ms": 5000}\n{"text": "x"}');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    expect((await play(p, controller.signal)).error).toMatchObject({ category: 'cancelled', retryable: false });
    // Well before the 5 s delay (liveness, not speed).
    expect(Date.now() - started).toBeLessThan(4_000);
    const slow = ReplayProvider.fromText(`{"text": "${'word '.repeat(20)}"}`, { chunkDelayMs: 30 });
    const c2 = new AbortController();
    const events: ModelStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of slow.stream(request, { signal: c2.signal })) {
          events.push(e);
          c2.abort();
        }
      })(),
    ).rejects.toMatchObject({ category: 'cancelled' });
    expect(events).toHaveLength(1);
  });

  it('reports id and model', () => {
    const p = new ReplayProvider([], { id: 'demo', model: 'scripted' });
    expect([p.id, p.model, p.turnCount, p.remaining]).toEqual(['demo', 'scripted', 0, 0]);
  });
});

describe('chunkText', () => {
  it('splits into at most 4 deltas at code-point boundaries, deterministically', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText('short')).toEqual(['short']);
    const long = '🐋'.repeat(40);
    const parts = chunkText(long);
    expect(parts).toHaveLength(3);
    expect(parts.join('')).toBe(long);
    expect(chunkText('x'.repeat(1000))).toHaveLength(4);
  });
});

describe('replay usage estimate (cached per message)', () => {
  // Strings of arbitrary UTF-16 code units: pairs, lone surrogates, surrogate halves at the edges.
  const units = fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff })), { maxLength: 24 })
    .map((xs) => String.fromCharCode(...xs));
  const message = fc.oneof(
    fc.record({ role: fc.constantFrom('system' as const, 'user' as const), content: units }),
    fc.record({ role: fc.constant('tool' as const), toolCallId: fc.constant('c'), content: units }),
    fc.record({
      role: fc.constant('assistant' as const),
      content: fc.option(units, { nil: null }),
      reasoningContent: fc.option(units, { nil: undefined }),
      toolCalls: fc.option(fc.array(fc.record({ id: fc.constant('c'), name: units, arguments: units }), { maxLength: 2 }), { nil: undefined }),
    }),
  );
  /** The definition: the code points of the whole request text, ÷ 4, rounded up. */
  const expected = (r: ModelRequest): number => {
    let text = '';
    for (const m of r.messages) {
      if (m.role === 'assistant') {
        text += (m.content ?? '') + (m.reasoningContent ?? '');
        for (const c of m.toolCalls ?? []) text += c.name + c.arguments;
      } else text += m.content;
    }
    if (r.tools.length > 0) text += JSON.stringify(r.tools);
    return Math.ceil([...text].length / 4);
  };
  const inputTokens = async (r: ModelRequest): Promise<number> => {
    const p = new ReplayProvider(parseReplayScript('{"text": "ok"}', 'x'));
    for await (const e of p.stream(r)) if (e.type === 'usage') return e.usage.inputTokens;
    throw new Error('no usage event');
  };

  it('counts code points as iterating the string does', () => {
    fc.assert(fc.property(units, (s) => codePointCount(s) === [...s].length));
  });

  it('equals the estimate of the concatenated request, on a first request and on later ones that reuse the history objects', async () => {
    const tools = [{ name: 'bash', description: 'run ✓ 🐋', parameters: { type: 'object' } }];
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 8 }), fc.array(message, { maxLength: 4 }), fc.boolean(), async (history, more, withTools) => {
        const first: ModelRequest = { model: 'm', messages: history as ModelRequest['messages'], tools: withTools ? tools : [] };
        expect(await inputTokens(first)).toBe(expected(first));
        const second: ModelRequest = { ...first, messages: [...first.messages, ...(more as ModelRequest['messages'])] };
        expect(await inputTokens(second)).toBe(expected(second));
      }),
      { numRuns: 300 },
    );
  });
});
