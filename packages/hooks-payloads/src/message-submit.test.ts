import { describe, it, expect } from 'vitest';
import { outcomeOf, type Run } from './test-outcome.js';
import fc from 'fast-check';
import { parseMessageSubmitStdout, startMessageSubmitChain, stepMessageSubmit, finishMessageSubmit, foldMessageSubmit, lostMessageSubmit } from './message-submit.js';
import { backgroundOutcome, type HookIdentity, type HookOutcome } from './outcome.js';

/** A foreground `message_submit` hook outcome. */
const run = (r: Run = {}): HookOutcome => outcomeOf('message_submit', 'ms', r);

const bgId: HookIdentity = { index: 5, name: 'bg', label: 'bg', event: 'message_submit', source: 'global', continueOnError: false, background: true };
const replace = (text: string): string => JSON.stringify({ text });

describe('parseMessageSubmitStdout (reference §9.2)', () => {
  it('replaces the text with a non-empty string', () => {
    expect(parseMessageSubmitStdout(replace('[hooked] hello'))).toEqual({ kind: 'replace', text: '[hooked] hello' });
    expect(parseMessageSubmitStdout(`\n ${replace('x')} \n`)).toEqual({ kind: 'replace', text: 'x' });
  });

  it('leaves the text unchanged for blank stdout or an object without text', () => {
    expect(parseMessageSubmitStdout('')).toEqual({ kind: 'unchanged' });
    expect(parseMessageSubmitStdout(' \n\t ')).toEqual({ kind: 'unchanged' });
    expect(parseMessageSubmitStdout('{"reason":"only a reason"}')).toEqual({ kind: 'unchanged' });
  });

  it('rejects invalid stdout with the documented problem texts', () => {
    expect(parseMessageSubmitStdout('{"text":""}')).toEqual({ kind: 'invalid', problem: 'stdout `text` field must not be empty' });
    expect(parseMessageSubmitStdout('{"text":123}')).toEqual({ kind: 'invalid', problem: 'stdout `text` field must be a string' });
    expect(parseMessageSubmitStdout(replace('x'.repeat(32_001)))).toEqual({
      kind: 'invalid',
      problem: 'stdout `text` field exceeds 32000 characters',
    });
    for (const bad of ['not json', '["a"]', '"s"', '42']) expect(parseMessageSubmitStdout(bad).kind).toBe('invalid');
  });

  it('counts the 32,000-char limit in code points', () => {
    expect(parseMessageSubmitStdout(replace('x'.repeat(32_000))).kind).toBe('replace');
    expect(parseMessageSubmitStdout(replace('🐋'.repeat(32_000))).kind).toBe('replace');
    expect(parseMessageSubmitStdout(replace('🐋'.repeat(32_001))).kind).toBe('invalid');
  });
});

describe('the message_submit chain', () => {
  it('runs hooks in order, each seeing the previous hook’s text', () => {
    let chain = startMessageSubmitChain('hello');
    chain = stepMessageSubmit(chain, run({ stdout: replace('first') }));
    expect(chain.text).toBe('first');
    chain = stepMessageSubmit(chain, run({ stdout: replace(`${chain.text} second`), index: 1 }));
    expect(finishMessageSubmit(chain)).toMatchObject({ kind: 'replaced', text: 'first second', warning: null });
    expect(chain.steps.map((s) => s.result)).toEqual(['replaced', 'replaced']);
  });

  it('exit 2 blocks with the redacted structured reason; later hooks do not run', () => {
    let chain = startMessageSubmitChain('hi');
    chain = stepMessageSubmit(chain, run({ exit: 2, stdout: JSON.stringify({ reason: 'blocked /Users/alice/private --run token=SUPERSECRET' }), stderr: 'stderr-secret /tmp/private' }));
    const after = stepMessageSubmit(chain, run({ stdout: replace('later') }));
    expect(after).toBe(chain);
    const r = finishMessageSubmit(after);
    expect(r).toEqual({ kind: 'blocked', reason: 'blocked [path] [argument] [secret]', steps: chain.steps });
  });

  it('exit 2 without a structured reason uses the fixed text; unstructured output is never copied', () => {
    expect(foldMessageSubmit('hi', [run({ exit: 2, stdout: 'blocked by /etc/policy', stderr: 'oops' })])).toMatchObject({
      kind: 'blocked',
      reason: 'message_submit hook blocked submission',
    });
    expect(foldMessageSubmit('hi', [run({ exit: 2, stdout: '{"reason":""}' })])).toMatchObject({ kind: 'blocked', reason: 'hook denied the action' });
    expect(foldMessageSubmit('hi', [run({ exit: 2, stdout: replace('ignored') })])).toMatchObject({
      kind: 'blocked',
      reason: 'message_submit hook blocked submission',
    });
  });

  it('a lenient non-zero exit warns, keeps the text and lets later hooks run', () => {
    const r = foldMessageSubmit('hi', [run({ exit: 9, stderr: 'something /private' }), run({ stdout: replace('after failure'), index: 1 })]);
    expect(r).toMatchObject({ kind: 'replaced', text: 'after failure', warning: 'message_submit hook exited with code 9' });
  });

  it('a lenient timeout warns with the generic detail', () => {
    const r = foldMessageSubmit('hi', [run({ exit: null, error: 'Hook timed out after 1s' }), run({ stdout: replace('after timeout'), index: 1 })]);
    expect(r).toMatchObject({ kind: 'replaced', text: 'after timeout', warning: 'hook timed out after 1s' });
    expect(foldMessageSubmit('hi', [run({ exit: null, error: 'hook process could not be started (NotFound) /bin/x' })])).toMatchObject({
      kind: 'unchanged',
      warning: 'hook process could not be started (NotFound)',
    });
  });

  it('a lenient failure with a structured reason warns with the redacted reason', () => {
    expect(foldMessageSubmit('hi', [run({ exit: 3, stdout: JSON.stringify({ reason: 'token=abc refused' }) })])).toMatchObject({
      kind: 'unchanged',
      warning: '[secret] refused',
    });
  });

  it('the newest warning overwrites older ones', () => {
    const r = foldMessageSubmit('hi', [run({ exit: 9 }), run({ exit: 4, index: 1 })]);
    expect(r).toMatchObject({ kind: 'unchanged', warning: 'message_submit hook exited with code 4' });
  });

  it('a strict failure blocks the submission', () => {
    expect(foldMessageSubmit('hi', [run({ strict: true, exit: 7 })])).toMatchObject({
      kind: 'blocked',
      reason: 'message_submit hook failed and blocked submission',
    });
    expect(foldMessageSubmit('hi', [run({ strict: true, exit: null, error: 'Hook timed out after 2s' })])).toMatchObject({
      kind: 'blocked',
      reason: 'hook timed out after 2s',
    });
    expect(foldMessageSubmit('hi', [run({ strict: true, exit: 1, stdout: JSON.stringify({ reason: 'see /etc/x' }) })])).toMatchObject({
      kind: 'blocked',
      reason: 'see [path]',
    });
  });

  it('invalid stdout is logged and ignored, never blocking, even for a strict hook', () => {
    const r = foldMessageSubmit('hi', [run({ strict: true, stdout: 'not json' }), run({ strict: true, stdout: '{"text":""}', index: 1 })]);
    expect(r).toMatchObject({ kind: 'unchanged', text: 'hi', warning: null });
    expect(r.steps.map((s) => [s.result, s.detail])).toEqual([
      ['invalid', 'stdout is not valid JSON'],
      ['invalid', 'stdout `text` field must not be empty'],
    ]);
  });

  it('a background hook never transforms or blocks', () => {
    const bg: HookOutcome = { ...backgroundOutcome(bgId, true), exitCode: 2, stdout: replace('hijacked') };
    expect(foldMessageSubmit('hi', [bg])).toMatchObject({ kind: 'unchanged', text: 'hi', warning: null });
    const failed = backgroundOutcome(bgId, false, 'background hook supervisor queue is full');
    const r = foldMessageSubmit('hi', [failed]);
    expect(r).toMatchObject({ kind: 'unchanged', text: 'hi' });
    expect(r.steps[0]).toMatchObject({ result: 'submitted', detail: 'hook could not be submitted' });
  });

  it('a replacement equal to the original counts as unchanged, and is not sanitized', () => {
    expect(foldMessageSubmit('same', [run({ stdout: replace('same') })])).toMatchObject({ kind: 'unchanged', text: 'same' });
    expect(foldMessageSubmit('a', [run({ stdout: replace('b\u001b[1m') })])).toMatchObject({ kind: 'replaced', text: 'b\u001b[1m' });
    expect(foldMessageSubmit('a', [run({ stdout: replace('b') }), run({ stdout: replace('a'), index: 1 })])).toMatchObject({ kind: 'unchanged', text: 'a' });
  });

  describe('oversized stdout (D16) is a failure, never parsed', () => {
    it('lenient: warns and keeps the text, even if the cut stdout held a replacement', () => {
      expect(foldMessageSubmit('hi', [run({ stdout: replace('big'), truncated: true })])).toMatchObject({
        kind: 'unchanged',
        text: 'hi',
        warning: 'no verdict: output exceeded 64 KiB',
      });
    });
    it('strict: blocks', () => {
      expect(foldMessageSubmit('hi', [run({ strict: true, stdout: replace('big'), truncated: true })])).toMatchObject({
        kind: 'blocked',
        reason: 'no verdict: output exceeded 64 KiB',
      });
    });
    it('exit 2 still blocks, with the fixed reason', () => {
      expect(foldMessageSubmit('hi', [run({ exit: 2, stdout: JSON.stringify({ reason: 'r' }), truncated: true })])).toMatchObject({
        kind: 'blocked',
        reason: 'message_submit hook blocked submission',
      });
    });
  });

  it('with no hooks the text goes through unchanged', () => {
    expect(foldMessageSubmit('hello', [])).toEqual({ kind: 'unchanged', text: 'hello', warning: null, steps: [] });
  });
});

describe('lostMessageSubmit', () => {
  const id = (strict: boolean, background = false): HookIdentity => ({ ...bgId, continueOnError: !strict, background });

  it('blocks when a matched strict foreground gate existed', () => {
    expect(lostMessageSubmit('hi', [id(false), id(true)])).toEqual({
      kind: 'blocked',
      reason: 'message_submit hook executor did not run; a strict gate blocked submission',
      steps: [],
    });
  });

  it('continues with a warning otherwise', () => {
    expect(lostMessageSubmit('hi', [id(false), id(true, true)])).toEqual({
      kind: 'unchanged',
      text: 'hi',
      warning: 'message_submit hook executor did not run; submission continued because no strict gate matched',
      steps: [],
    });
  });
});

describe('properties', () => {
  const stdout = fc.oneof(
    fc.constant(''),
    fc.string({ maxLength: 20 }),
    fc.string({ minLength: 1, maxLength: 10 }).map(replace),
    fc.string({ maxLength: 40 }).map((reason) => JSON.stringify({ reason })),
  );
  const outcome = fc
    .record({
      exit: fc.constantFrom<number | null>(0, 0, 1, 2, 9, null),
      stdout,
      stderr: fc.constant('RAW-STDERR /tmp/private'),
      strict: fc.boolean(),
      truncated: fc.constantFrom(false, false, false, true),
      error: fc.constantFrom<string | null>(null, 'Hook timed out after 1s', 'spawn failed: /Users/me/secret'),
    })
    .map((r) => run(r));
  const bg = stdout.map((s): HookOutcome => ({ ...backgroundOutcome(bgId, true), stdout: s, exitCode: 2 }));

  it('the stdout parser never throws; a replacement is a non-empty string of at most 32,000 chars', () => {
    const raw = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 31_990, maxLength: 32_010 }), fc.integer(), fc.constant(null)).map((text) => JSON.stringify({ text })),
    );
    fc.assert(
      fc.property(raw, (stdout) => {
        const p = parseMessageSubmitStdout(stdout);
        if (p.kind === 'replace') {
          expect(p.text).not.toBe('');
          expect([...p.text].length).toBeLessThanOrEqual(32_000);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a block reason or warning is one bounded line that never copies raw stderr or error text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.array(outcome, { maxLength: 6 }), (text, outs) => {
        const r = foldMessageSubmit(text, outs);
        const said = r.kind === 'blocked' ? r.reason : r.warning;
        if (said !== null) {
          expect(said).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/u);
          expect([...said].length).toBeLessThanOrEqual(252);
          expect(said).not.toContain('RAW-STDERR');
          expect(said).not.toContain('/Users/me');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the final text is the original or one of the replacements', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.array(outcome, { maxLength: 6 }), (text, outs) => {
        const r = foldMessageSubmit(text, outs);
        if (r.kind === 'blocked') return;
        const candidates = [text, ...outs.map((o) => parseMessageSubmitStdout(o.stdout)).flatMap((p) => (p.kind === 'replace' ? [p.text] : []))];
        expect(candidates).toContain(r.text);
        expect(r.kind === 'replaced').toBe(r.text !== text);
      }),
      { numRuns: 300 },
    );
  });

  it('background outcomes never change the result', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.array(outcome, { maxLength: 5 }), fc.array(fc.tuple(bg, fc.nat()), { maxLength: 4 }), (text, outs, bgs) => {
        const mixed = [...outs];
        for (const [b, at] of bgs) mixed.splice(at % (mixed.length + 1), 0, b);
        const { steps: _a, ...plain } = foldMessageSubmit(text, outs);
        const { steps: _b, ...withBg } = foldMessageSubmit(text, mixed);
        expect(withBg).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a hook that hands back the same text', () => {
  it('is recorded as unchanged, not replaced', () => {
    const hook = { index: 0, name: 'echo', label: 'echo', event: 'message_submit' as const, source: 'global' as const, continueOnError: true, background: false };
    const outcome = {
      hook,
      background: false,
      strict: false,
      success: true,
      exitCode: 0,
      signal: null,
      durationMs: 1,
      timedOut: false,
      spawnError: null,
      error: null,
      stdout: '{"text":"same"}',
      stderr: '',
      stdoutTruncated: false,
      stderrTruncated: false,
    };
    const result = foldMessageSubmit('same', [outcome]);
    expect(result.kind).toBe('unchanged');
    expect(result.steps.map((s) => s.result)).toEqual(['unchanged']);
  });
});
