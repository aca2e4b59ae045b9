import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { buildMessageSubmitDocument, type MessageSubmitInput } from './message-submit-document.js';
import { utf8ByteLength, isWellFormed } from './utf8.js';

const MAX = 32_768;
const META_KEYS = ['session_id', 'workspace', 'mode', 'model', 'total_tokens'];

function parsed(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

/** Asserts the document's own invariants against the input. */
function checkDocument(input: MessageSubmitInput): ReturnType<typeof buildMessageSubmitDocument> {
  const doc = buildMessageSubmitDocument(input);
  expect(utf8ByteLength(doc.json)).toBeLessThanOrEqual(MAX);
  const p = parsed(doc.json);
  expect(p.event).toBe('message_submit');
  expect(p.text).toBe(doc.text);
  expect(input.text.startsWith(doc.text)).toBe(true);
  expect(p.text_bytes).toBe(utf8ByteLength(doc.text));
  expect(doc.textBytes).toBe(utf8ByteLength(doc.text));
  expect(p.text_original_bytes).toBe(utf8ByteLength(input.text));
  expect(p.text_truncated).toBe(doc.text !== input.text);
  expect(doc.textTruncated).toBe(doc.text !== input.text);
  return doc;
}

describe('buildMessageSubmitDocument', () => {
  it('carries short text and explicit metadata in contract key order', () => {
    const doc = buildMessageSubmitDocument({
      text: 'hello 用户',
      sessionId: 'sess_12345678',
      workspace: '/path/to/workspace',
      mode: 'Agent',
      model: 'deepseek-chat',
      totalTokens: 1234,
    });
    expect(doc.json).toBe(
      '{"event":"message_submit","text":"hello 用户","text_bytes":12,"text_original_bytes":12,"text_truncated":false,' +
        '"session_id":"sess_12345678","workspace":"/path/to/workspace","mode":"ACT","model":"deepseek-chat","total_tokens":1234}',
    );
    expect(doc.metadataCap).toBe(4_096);
    expect(doc.textTruncated).toBe(false);
  });

  it('writes missing metadata as null, keeping the keys', () => {
    const p = parsed(buildMessageSubmitDocument({ text: 'x' }).json);
    expect(Object.keys(p)).toEqual(['event', 'text', 'text_bytes', 'text_original_bytes', 'text_truncated', ...META_KEYS]);
    for (const k of META_KEYS) expect(p[k]).toBeNull();
  });

  it('spells the mode as the UI label', () => {
    expect(parsed(buildMessageSubmitDocument({ text: 'x', mode: 'plan' }).json).mode).toBe('PLAN');
    expect(parsed(buildMessageSubmitDocument({ text: 'x', mode: 'yolo' }).json).mode).toBe('ACT');
  });

  it('handles empty text', () => {
    const doc = checkDocument({ text: '' });
    expect(parsed(doc.json)).toMatchObject({ text: '', text_bytes: 0, text_original_bytes: 0, text_truncated: false });
  });

  it('bounds the document after JSON escaping: "用户\\"\\\\\\n" × 20000', () => {
    const text = '用户"\\\n'.repeat(20_000);
    const doc = checkDocument({ text, sessionId: 'sess_12345678', workspace: '/w', mode: 'ACT', model: 'm', totalTokens: 1 });
    expect(doc.textTruncated).toBe(true);
    expect(doc.textOriginalBytes).toBe(180_000);
    expect(doc.textBytes).toBeGreaterThan(10_000);
    expect(doc.textBytes).toBeLessThan(MAX);
    // the prefix is the largest that fits: one more code point would not
    const p = parsed(doc.json);
    const next = [...text.slice(doc.text.length)][0]!;
    const bigger = JSON.stringify({ ...p, text: doc.text + next, text_bytes: doc.textBytes + utf8ByteLength(next) });
    expect(utf8ByteLength(bigger)).toBeGreaterThan(MAX);
  });

  it('marks text under 32 KiB as truncated when escaping pushes it over', () => {
    const text = '\u0001'.repeat(6_000); // 6,000 bytes, 36,000 once escaped
    const doc = checkDocument({ text });
    expect(doc.textTruncated).toBe(true);
    expect(doc.textOriginalBytes).toBe(6_000);
    expect(doc.textBytes).toBeLessThan(6_000);
  });

  it('keeps a text that fits exactly, untruncated', () => {
    const skeleton = buildMessageSubmitDocument({ text: '' }).json;
    // "text":"" grows by n bytes; text_bytes / text_original_bytes grow from 1 to 5 digits each.
    const n = MAX - utf8ByteLength(skeleton) - 8;
    const doc = checkDocument({ text: 'a'.repeat(n) });
    expect(utf8ByteLength(doc.json)).toBe(MAX);
    expect(doc.textTruncated).toBe(false);
    const over = checkDocument({ text: 'a'.repeat(n + 1) });
    expect(over.textTruncated).toBe(true);
  });

  it('bounds long metadata at 4,096 bytes per field with ...[truncated]', () => {
    const long = 'w'.repeat(8_000);
    const doc = checkDocument({ text: 'hi', sessionId: long, workspace: long, mode: long, model: long, totalTokens: 7 });
    expect(doc.metadataCap).toBe(4_096);
    const p = parsed(doc.json);
    for (const k of ['session_id', 'workspace', 'mode', 'model']) expect(p[k]).toBe(`${'w'.repeat(4_096)}...[truncated]`);
    expect(doc.text).toBe('hi');
  });

  it('falls back to smaller metadata caps for hostile control-heavy metadata', () => {
    const hostile = '\u0001\u0002\u001b\u0000'.repeat(8_000);
    const doc = checkDocument({ text: 'message body', sessionId: hostile, workspace: hostile, mode: hostile, model: hostile });
    expect(doc.metadataCap).toBe(1_024);
    const p = parsed(doc.json);
    for (const k of ['session_id', 'workspace', 'mode', 'model']) {
      const v = p[k] as string;
      expect(v.endsWith('...[truncated]')).toBe(true);
      expect(utf8ByteLength(v)).toBeLessThanOrEqual(1_024 + 14);
    }
    expect(doc.text).toBe('message body');
  });

  it('scans a huge message quickly and keeps a prefix', () => {
    const doc = checkDocument({ text: 'é'.repeat(2_000_000) });
    expect(doc.textTruncated).toBe(true);
    expect(doc.textOriginalBytes).toBe(4_000_000);
  });
});

describe('properties', () => {
  const unit = fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.constantFrom('"', '\\', '\n', '\u0001', '\u001f', '鲸', '🐋', '\u2028', '\u007f'));
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.tuple(fc.array(unit, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 12_000 })).map(([u, n]) => u.join('').repeat(n)),
  );
  const meta = fc.option(
    fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.tuple(unit, fc.integer({ min: 0, max: 3_000 })).map(([u, n]) => u.repeat(n)),
    ),
  );

  it('is always ≤ 32,768 bytes, parses back, and its text is a prefix of the input', () => {
    fc.assert(
      fc.property(text, meta, meta, meta, meta, fc.option(fc.nat()), (t, sessionId, workspace, mode, model, totalTokens) => {
        const doc = checkDocument({ text: t, sessionId, workspace, mode, model, totalTokens });
        if (isWellFormed(t)) expect(isWellFormed(doc.text)).toBe(true);
        const p = parsed(doc.json);
        if (doc.metadataCap === null) for (const k of META_KEYS) expect(k in p).toBe(false);
        else
          for (const k of ['session_id', 'workspace', 'mode', 'model']) {
            if (p[k] !== null) expect(utf8ByteLength(p[k] as string)).toBeLessThanOrEqual(doc.metadataCap + 14);
          }
      }),
      { numRuns: 100 },
    );
  });

  it('says text_truncated exactly when bytes were dropped, right at the 32 KiB edge', () => {
    const skeleton = utf8ByteLength(buildMessageSubmitDocument({ text: '' }).json);
    fc.assert(
      fc.property(fc.constantFrom('a', '"', '鲸', '\u0001', '🐋', '\n'), fc.integer({ min: -12, max: 12 }), (u, k) => {
        const escaped = utf8ByteLength(JSON.stringify(u)) - 2;
        const count = Math.floor((MAX - skeleton - 8) / escaped) + k;
        const doc = checkDocument({ text: u.repeat(Math.max(0, count)) });
        expect(doc.textTruncated).toBe(doc.textBytes !== doc.textOriginalBytes);
      }),
      { numRuns: 80 },
    );
  });

  it('leaves a text that fits untouched', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (t) => {
        const doc = buildMessageSubmitDocument({ text: t, sessionId: 'sess_12345678' });
        expect(doc.text).toBe(t);
        expect(isWellFormed(doc.text)).toBe(true);
        expect(doc.textTruncated).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
