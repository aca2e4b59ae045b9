import { describe, it, expect } from 'vitest';
import { outcomeOf, type Run } from './test-outcome.js';
import fc from 'fast-check';
import { parseToolCallBeforeStdout, foldToolCallBefore, foldLostToolCallBefore, ToolInputPreview, type FoldToolCallBeforeInput } from './tool-call-before.js';
import { backgroundOutcome, type HookIdentity, type HookOutcome } from './outcome.js';

const TEXT_MARK = '\u2026[truncated]';
const cps = (s: string): number => [...s].length;

/** A foreground `tool_call_before` hook outcome. */
const run = (r: Run = {}): HookOutcome => outcomeOf('tool_call_before', 'gate', r);

/** A background outcome; it may even (wrongly) carry a code and a verdict, which must never count. */
function background(stdout = '', exitCode: number | null = null): HookOutcome {
  const id: HookIdentity = { index: 9, name: 'bg', label: 'bg', event: 'tool_call_before', source: 'global', continueOnError: false, background: true };
  return { ...backgroundOutcome(id, true), stdout, exitCode };
}

const json = (v: unknown): string => JSON.stringify(v);
const fold = (outcomes: HookOutcome[], tool = 'exec_shell', extra: Partial<FoldToolCallBeforeInput> = {}) => foldToolCallBefore({ tool, originalInput: { command: 'ls' }, outcomes, ...extra });

describe('parseToolCallBeforeStdout (reference §10.1)', () => {
  it('parses deny with a reason, ask, allow', () => {
    expect(parseToolCallBeforeStdout(json({ decision: 'deny', reason: 'no' }))).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(parseToolCallBeforeStdout(json({ decision: 'ask' })).decision).toBe('ask');
    expect(parseToolCallBeforeStdout(`  ${json({ decision: 'allow' })}\n`).decision).toBe('allow');
  });

  it.each(['', '   \n  ', 'ok, proceeding', 'exit code zero', '{"decision":"deny"'])('%j is a passthrough (no decision)', (stdout) => {
    expect(parseToolCallBeforeStdout(stdout)).toEqual({ decision: null, reason: null, updatedInput: null, additionalContext: null, warnings: [] });
  });

  it.each(['"deny"', '[1,2,3]', '42', 'true', 'null'])('non-object JSON %s is no decision, with a warning', (stdout) => {
    const v = parseToolCallBeforeStdout(stdout);
    expect(v.decision).toBeNull();
    expect(v.warnings).toHaveLength(1);
  });

  it('treats an unknown decision as none, with a fixed warning that does not echo it', () => {
    for (const decision of ['block', 'DENY', 'Allow', 1, true]) {
      const v = parseToolCallBeforeStdout(json({ decision }));
      expect(v.decision).toBeNull();
      expect(v.warnings.join(' ')).not.toContain(String(decision));
    }
    expect(parseToolCallBeforeStdout(json({ reason: 'x' })).decision).toBeNull();
  });

  it('accepts updatedInput only as an object of at most 32 KiB compact JSON; the decision still counts', () => {
    expect(parseToolCallBeforeStdout(json({ decision: 'allow', updatedInput: { command: 'ls -la' } })).updatedInput).toEqual({ command: 'ls -la' });
    for (const bad of ['rm -rf /', [1, 2], 7, null]) {
      const v = parseToolCallBeforeStdout(json({ decision: 'deny', updatedInput: bad }));
      expect(v.updatedInput).toBeNull();
      expect(v.decision).toBe('deny');
      expect(v.warnings).toHaveLength(1);
    }
    const fits = { k: 'x'.repeat(32_768 - 8) }; // {"k":"…"} is exactly 32,768 bytes
    expect(json(fits)).toHaveLength(32_768);
    expect(parseToolCallBeforeStdout(json({ updatedInput: fits })).updatedInput).toEqual(fits);
    const over = { k: 'x'.repeat(32_768 - 7) };
    const v = parseToolCallBeforeStdout(json({ decision: 'ask', updatedInput: over }));
    expect(v.updatedInput).toBeNull();
    expect(v.decision).toBe('ask');
  });

  it('sanitizes and bounds reason and additionalContext at 2,000 chars, dropping blank ones', () => {
    const v = parseToolCallBeforeStdout(json({ reason: 'a\u001b[2Jb\r\u0000c\nd', additionalContext: 'x'.repeat(3_000) }));
    expect(v.reason).toBe('a[2Jbc\nd');
    expect(v.additionalContext).toBe(`${'x'.repeat(2_000)}${TEXT_MARK}`);
    expect(parseToolCallBeforeStdout(json({ reason: '   ', additionalContext: '\u0007' }))).toMatchObject({ reason: null, additionalContext: null });
    expect(parseToolCallBeforeStdout(json({ reason: 5, additionalContext: ['x'] }))).toMatchObject({ reason: null, additionalContext: null });
  });
});

describe('foldToolCallBefore (reference §10.2)', () => {
  it('no hooks ran: allow', () => {
    expect(fold([])).toMatchObject({ decision: 'allow', denyKind: null, message: null, updatedInput: null, additionalContext: null, hooks: [] });
  });

  it('a JSON deny blocks with the redacted reason', () => {
    const r = fold([run({ stdout: json({ decision: 'deny', reason: 'blocked /Users/alice/private --run token=SUPERSECRET' }) })]);
    expect(r.decision).toBe('deny');
    expect(r.denyKind).toBe('json_deny');
    expect(r.message).toBe("ToolCallBefore hook denied tool 'exec_shell': blocked [path] [argument] [secret]");
  });

  it('a JSON deny with no reason uses the default reason', () => {
    expect(fold([run({ stdout: json({ decision: 'deny', reason: '  ' }) })]).message).toBe("ToolCallBefore hook denied tool 'exec_shell': ToolCallBefore hook denied tool execution");
  });

  it('exit 2 denies regardless of stdout, and plain-text stdout never becomes the reason', () => {
    const plain = fold([run({ exit: 2, stdout: 'Tool blocked by security policy', stderr: 'secret /tmp/x' })], 'bash');
    expect(plain).toMatchObject({ decision: 'deny', denyKind: 'exit_2' });
    expect(plain.message).toBe("ToolCallBefore hook denied tool 'bash': ToolCallBefore hook denied tool execution");
    expect(fold([run({ exit: 2, stdout: json({ decision: 'allow' }) })]).decision).toBe('deny');
    expect(fold([run({ exit: 2, stdout: json({ reason: 'policy' }) })]).message).toBe("ToolCallBefore hook denied tool 'exec_shell': policy");
  });

  it('exit 2 wins over an earlier JSON deny', () => {
    const r = fold([run({ stdout: json({ decision: 'deny', reason: 'first' }) }), run({ exit: 2, stdout: json({ reason: 'second' }), index: 1 })]);
    expect(r.denyKind).toBe('exit_2');
    expect(r.message).toMatch(/: second$/);
  });

  it('deny > ask > allow, whatever the order', () => {
    const allow = run({ stdout: json({ decision: 'allow' }) });
    const ask = run({ stdout: json({ decision: 'ask' }) });
    const deny = run({ stdout: json({ decision: 'deny' }) });
    expect(fold([allow, ask, deny]).decision).toBe('deny');
    expect(fold([deny, ask, allow]).decision).toBe('deny');
    expect(fold([allow, ask]).decision).toBe('ask');
    expect(fold([ask, allow]).decision).toBe('ask');
    expect(fold([allow, allow]).decision).toBe('allow');
  });

  it("keeps an ask's reason, redacted and bounded, in the asking hook's row (the approval prompt and /why show it)", () => {
    const r = fold([run({ stdout: json({ decision: 'allow', reason: 'not kept' }) }), run({ stdout: json({ decision: 'ask', reason: 'a risky \x1b[31mcommand' }), index: 1 })]);
    expect(r.decision).toBe('ask');
    expect(r.hooks.map((h) => [h.outcome, h.detail])).toEqual([
      ['allow', null],
      ['ask', 'a risky [31mcommand'],
    ]);
  });

  it('the first JSON deny names the reason', () => {
    const r = fold([run({ stdout: json({ decision: 'deny', reason: 'one' }) }), run({ stdout: json({ decision: 'deny', reason: 'two' }) })]);
    expect(r.message).toMatch(/: one$/);
  });

  it('a lenient hook that exits 1 and prints deny still denies', () => {
    expect(fold([run({ exit: 1, stdout: json({ decision: 'deny' }) })]).decision).toBe('deny');
  });

  it('the last updatedInput wins, and a lenient failing hook may still rewrite', () => {
    const r = fold([
      run({ stdout: json({ decision: 'allow', updatedInput: { command: 'first' } }) }),
      run({ exit: 1, stdout: json({ updatedInput: { command: 'second' } }) }),
      run({ stdout: json({ decision: 'allow' }) }),
    ]);
    expect(r.decision).toBe('allow');
    expect(r.updatedInput).toEqual({ command: 'second' });
    expect(r.input).toEqual({ original: '{"command":"ls"}', rewritten: '{"command":"second"}' });
  });

  it('a deny discards rewrites and context gathered so far', () => {
    const r = fold([run({ stdout: json({ updatedInput: { command: 'x' }, additionalContext: 'ctx' }) }), run({ stdout: json({ decision: 'deny' }) })]);
    expect(r).toMatchObject({ decision: 'deny', updatedInput: null, additionalContext: null, input: { rewritten: null } });
  });

  it('joins additionalContext with "\\n"', () => {
    const r = fold([run({ stdout: json({ additionalContext: 'one' }) }), run({ stdout: json({ decision: 'ask', additionalContext: 'two' }) })]);
    expect(r.additionalContext).toBe('one\ntwo');
    expect(r.decision).toBe('ask');
  });

  it('bounds 12 × 4,000-char contexts at 8,000 chars plus the marker', () => {
    const r = fold(Array.from({ length: 12 }, (_, i) => run({ index: i, stdout: json({ additionalContext: String(i).repeat(4_000) }) })));
    expect(r.additionalContext!.endsWith(TEXT_MARK)).toBe(true);
    expect(cps(r.additionalContext!)).toBe(8_000 + cps(TEXT_MARK));
  });

  it('legacy stdout is a passthrough', () => {
    for (const stdout of ['', 'not json at all']) expect(fold([run({ stdout })]).decision).toBe('allow');
    expect(fold([run({ exit: 1, stdout: json({ status: 'fine' }) })]).decision).toBe('allow');
  });

  it('background results cannot steer', () => {
    const r = fold([background(json({ decision: 'deny', updatedInput: { command: 'rm' }, additionalContext: 'x' }), 2), run({ stdout: json({ decision: 'allow' }) })]);
    expect(r).toMatchObject({ decision: 'allow', updatedInput: null, additionalContext: null });
    expect(r.hooks[0]).toMatchObject({ outcome: 'submitted', background: true, exitCode: null });
  });

  it('a strict gate with no verdict denies with the exact no-verdict message', () => {
    const r = fold([run({ strict: true, exit: null, error: 'Hook timed out after 1s' })]);
    expect(r).toMatchObject({ decision: 'deny', denyKind: 'no_verdict' });
    expect(r.message).toBe("ToolCallBefore hook returned no verdict for tool 'exec_shell' and `continue_on_error = false` is configured: gate: hook timed out after 1s");
  });

  it('names only the strict gates, joined with "; "', () => {
    const r = fold([
      run({ strict: true, exit: null, error: 'Hook timed out after 2s', name: 'a' }),
      run({ strict: false, exit: null, error: 'Hook timed out after 3s', name: 'lenient' }),
      run({ strict: true, exit: 1, name: null }),
    ]);
    expect(r.message).toBe(
      "ToolCallBefore hook returned no verdict for tool 'exec_shell' and `continue_on_error = false` is configured: a: hook timed out after 2s; (unnamed): hook returned no verdict",
    );
  });

  it('a strict no-verdict denies even when another hook allowed, and beats exit 2', () => {
    expect(fold([run({ stdout: json({ decision: 'allow' }) }), run({ strict: true, exit: null, error: 'Hook timed out after 1s' })]).decision).toBe('deny');
    expect(fold([run({ exit: 2 }), run({ strict: true, exit: null })]).denyKind).toBe('no_verdict');
  });

  it('a lenient timeout does not deny', () => {
    const r = fold([run({ strict: false, exit: null, error: 'Hook timed out after 1s' })]);
    expect(r.decision).toBe('allow');
    expect(r.hooks[0]).toMatchObject({ outcome: 'no_verdict', detail: 'hook timed out after 1s' });
  });

  it('a strict exit 1 with a valid decision is not a no-verdict; without one it is', () => {
    expect(fold([run({ strict: true, exit: 1, stdout: json({ decision: 'allow' }) })]).decision).toBe('allow');
    const r = fold([run({ strict: true, exit: 1, stdout: json({ status: 'fine' }) })]);
    expect(r.denyKind).toBe('no_verdict');
    expect(r.message).toMatch(/: gate: hook returned no verdict$/);
    expect(fold([run({ strict: true, exit: 0, stdout: '' })]).decision).toBe('allow');
  });

  it('a spawn failure is named by kind, never by command line or path', () => {
    const r = fold([run({ strict: true, exit: null, error: 'hook process could not be started (NotFound) /usr/local/bin/gate --token=abc' })]);
    expect(r.message).toMatch(/gate: hook process could not be started \(NotFound\)$/);
    expect(r.message).not.toContain('/usr/local');
    expect(r.message).not.toContain('token');
  });

  it('labels in a denial are bounded and defanged', () => {
    const r = fold([run({ strict: true, exit: null, name: `\u001b[31m${'n'.repeat(200)}\n` })]);
    expect(r.message).not.toMatch(/[\u0000-\u001f]/u);
    expect(r.message).toContain(`${'n'.repeat(59)}${TEXT_MARK}: hook returned no verdict`);
  });

  describe('oversized stdout (D16) is no verdict, never parsed', () => {
    const huge = json({ decision: 'deny', reason: 'x' });
    it('strict: deny', () => {
      const r = fold([run({ strict: true, stdout: huge, truncated: true })]);
      expect(r.denyKind).toBe('no_verdict');
      expect(r.message).toMatch(/gate: no verdict: output exceeded 64 KiB$/);
    });
    it('lenient: allow, even though the cut text said deny', () => {
      const r = fold([run({ strict: false, stdout: huge, truncated: true })]);
      expect(r.decision).toBe('allow');
      expect(r.hooks[0]).toMatchObject({ outcome: 'no_verdict', detail: 'no verdict: output exceeded 64 KiB' });
    });
  });

  it('records every matched hook, skipped ones included, without raw output', () => {
    const skipped: HookIdentity = { index: 3, name: 'late', label: 'late', event: 'tool_call_before', source: 'project', continueOnError: false, background: false };
    const r = fold([run({ stdout: json({ decision: 'allow', additionalContext: 'c' }), stderr: 'RAW-STDERR' }), run({ index: 1, exit: 2, stdout: 'RAW-STDOUT' })], 'Bash', {
      skipped: [skipped],
      callId: 'call-9',
      hookSetDigest: 'abc123',
    });
    expect(r).toMatchObject({ schemaVersion: 1, tool: 'Bash', callId: 'call-9', hookSetDigest: 'abc123' });
    expect(r.hooks.map((h) => h.outcome)).toEqual(['allow', 'deny_exit_2', 'skipped']);
    expect(r.hooks[0]).toMatchObject({ addedContext: true, rewroteInput: false });
    expect(r.hooks[2]).toMatchObject({ label: 'late', source: 'project', strict: true, exitCode: null });
    expect(JSON.stringify(r)).not.toMatch(/RAW-STD/);
  });

  it('sanitizes the tool name in the message', () => {
    expect(fold([run({ exit: 2 })], 'evil\u001b[2J\ntool').message).toBe("ToolCallBefore hook denied tool 'evil[2J tool': ToolCallBefore hook denied tool execution");
  });
});

describe('foldLostToolCallBefore', () => {
  const id = (name: string, strict: boolean, bg = false): HookIdentity => ({
    index: 0,
    name,
    label: name,
    event: 'tool_call_before',
    source: 'global',
    continueOnError: !strict,
    background: bg,
  });

  it('fails closed for every matched strict foreground gate', () => {
    const r = foldLostToolCallBefore({ tool: 'exec_shell', originalInput: {}, matched: [id('a', true), id('b', false), id('c', true, true)] });
    expect(r.message).toBe("ToolCallBefore hook returned no verdict for tool 'exec_shell' and `continue_on_error = false` is configured: a: hook executor did not run");
  });

  it('proceeds when no strict gate matched', () => {
    expect(foldLostToolCallBefore({ tool: 'x', originalInput: {}, matched: [id('b', false), id('c', true, true)] }).decision).toBe('allow');
    expect(foldLostToolCallBefore({ tool: 'x', originalInput: {}, matched: [] }).decision).toBe('allow');
  });
});

describe('properties', () => {
  it('the stdout parser never throws and always returns bounded, sanitized fields', () => {
    const field = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ maxLength: 3_000 }), fc.integer(), fc.constant(null));
    const raw = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc
        .record(
          { decision: field, reason: field, additionalContext: field, updatedInput: fc.oneof(field, fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 20_000 }), { maxKeys: 3 })) },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    fc.assert(
      fc.property(raw, (stdout) => {
        const v = parseToolCallBeforeStdout(stdout);
        expect([null, 'allow', 'deny', 'ask']).toContain(v.decision);
        for (const f of [v.reason, v.additionalContext]) {
          if (f === null) continue;
          expect(f.trim()).not.toBe('');
          expect(cps(f)).toBeLessThanOrEqual(2_000 + cps(TEXT_MARK));
          expect(f).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
        }
        if (v.updatedInput !== null) expect(new TextEncoder().encode(JSON.stringify(v.updatedInput)).length).toBeLessThanOrEqual(32_768);
      }),
      { numRuns: 200 },
    );
  });

  const stdout = fc.oneof(
    fc.constant(''),
    fc.constant('plain text'),
    fc
      .record(
        {
          decision: fc.constantFrom('allow', 'deny', 'ask', 'block'),
          reason: fc.string({ maxLength: 20 }),
          updatedInput: fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
          additionalContext: fc.string({ maxLength: 20 }),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
  );
  const foreground = fc
    .record({
      exit: fc.constantFrom<number | null>(0, 0, 0, 1, 2, null),
      stdout,
      strict: fc.boolean(),
      truncated: fc.constantFrom(false, false, false, false, true),
      error: fc.constantFrom<string | null>(null, 'Hook timed out after 1s'),
    })
    .map((r) => run(r));
  const lenientForeground = foreground.map((o) => ({ ...o, strict: false, hook: { ...o.hook, continueOnError: true } }));
  const bg = fc.tuple(stdout, fc.constantFrom<number | null>(null, 0, 2)).map(([s, c]) => background(s, c));
  const denyOutcome = fc.constantFrom(run({ stdout: json({ decision: 'deny' }) }), run({ exit: 2 }), run({ exit: 1, stdout: json({ decision: 'deny', reason: 'r' }) }));

  it('deny dominates: adding a deny outcome anywhere never yields allow or ask', () => {
    fc.assert(
      fc.property(fc.array(foreground, { maxLength: 6 }), denyOutcome, fc.nat(), (outs, deny, at) => {
        const i = at % (outs.length + 1);
        const withDeny = [...outs.slice(0, i), deny, ...outs.slice(i)];
        expect(fold(withDeny).decision).toBe('deny');
      }),
      { numRuns: 300 },
    );
  });

  it('strictness is read only from hooks that ran: lenient outcomes never add a no-verdict deny', () => {
    fc.assert(
      fc.property(fc.array(lenientForeground, { maxLength: 6 }), (outs) => {
        const r = fold(outs);
        expect(r.denyKind).not.toBe('no_verdict');
        const hasDeny = outs.some((o) => o.exitCode === 2 || (o.exitCode !== null && !o.stdoutTruncated && o.stdout.includes('"decision":"deny"')));
        expect(r.decision === 'deny').toBe(hasDeny);
      }),
      { numRuns: 300 },
    );
  });

  it('a strict hook that produced no verdict always denies', () => {
    fc.assert(
      fc.property(fc.array(foreground, { maxLength: 5 }), fc.array(foreground, { maxLength: 5 }), (a, b) => {
        const r = fold([...a, run({ strict: true, exit: null, error: 'Hook timed out after 5s', name: 'strict-gate' }), ...b]);
        expect(r.denyKind).toBe('no_verdict');
        expect(r.message).toContain('strict-gate: hook timed out after 5s');
      }),
      { numRuns: 200 },
    );
  });

  it('last writer wins for updatedInput', () => {
    const rewrite = fc.integer().map((n) => run({ stdout: json({ decision: 'allow', updatedInput: { n } }) }));
    fc.assert(
      fc.property(fc.array(fc.oneof(rewrite, fc.constant(run({ stdout: '' })), fc.constant(run({ stdout: json({ decision: 'ask' }) }))), { maxLength: 8 }), (outs) => {
        const r = fold(outs);
        const writers = outs.filter((o) => o.stdout.includes('updatedInput'));
        const last = writers.at(-1);
        expect(r.updatedInput).toEqual(last ? (JSON.parse(last.stdout) as { updatedInput: unknown }).updatedInput : null);
      }),
      { numRuns: 200 },
    );
  });

  it('background outcomes never change the decision, the rewrite or the context', () => {
    fc.assert(
      fc.property(fc.array(foreground, { maxLength: 6 }), fc.array(fc.tuple(bg, fc.nat()), { maxLength: 4 }), (outs, bgs) => {
        const mixed = [...outs];
        for (const [b, at] of bgs) mixed.splice(at % (mixed.length + 1), 0, b);
        const plain = fold(outs);
        const withBg = fold(mixed);
        expect(withBg.decision).toBe(plain.decision);
        expect(withBg.message).toBe(plain.message);
        expect(withBg.updatedInput).toEqual(plain.updatedInput);
        expect(withBg.additionalContext).toBe(plain.additionalContext);
      }),
      { numRuns: 300 },
    );
  });

  it('the message is one bounded line and the context stays within 8,000 chars', () => {
    fc.assert(
      fc.property(fc.array(foreground, { maxLength: 8 }), (outs) => {
        const r = fold(outs);
        if (r.message !== null) expect(r.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/u);
        if (r.additionalContext !== null) expect(cps(r.additionalContext)).toBeLessThanOrEqual(8_000 + cps(TEXT_MARK));
        expect(r.decision === 'deny').toBe(r.message !== null);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a preview made ahead (ToolInputPreview)', () => {
  const input = fc.oneof(
    fc.dictionary(
      fc.string({ maxLength: 12 }),
      fc.oneof(fc.string({ maxLength: 80 }), fc.integer(), fc.constantFrom('sk-abc123def456', 'password=hunter2', 'ghp_0123456789abcdefABCDEF0123456789abcd')),
      { maxKeys: 5 },
    ),
    fc.string({ maxLength: 200 }),
    fc.constant(null),
  );
  const outcomes = fc.array(fc.constantFrom(run(), run({ stdout: json({ decision: 'deny', reason: 'r' }) }), run({ stdout: json({ decision: 'allow', updatedInput: { x: 1 } }) }), run({ exit: 2 })), {
    maxLength: 3,
  });

  it('gives the very record the fold makes without it', () => {
    fc.assert(
      fc.property(input, outcomes, (originalInput, outs) => {
        const plain = foldToolCallBefore({ tool: 't', originalInput, outcomes: outs });
        const ahead = foldToolCallBefore({ tool: 't', originalInput, outcomes: outs, originalPreview: ToolInputPreview.of(originalInput) });
        expect(ahead).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });

  it("is redacted like the fold's own, and is used for the object it was made from", () => {
    const original = { command: 'curl -H "Authorization: Bearer sk-live-abcdefghijkl" https://x', token: 'ghp_0123456789abcdefABCDEF0123456789abcd' };
    const made = ToolInputPreview.of(original);
    expect(made.text).not.toContain('sk-live');
    expect(made.text).not.toContain('ghp_');
    expect(made.textFor(original)).toBe(made.text);
    // The fold takes the text it was handed for that input (a stand-in proves it was not recomputed).
    const standIn = ToolInputPreview.of('kept as made');
    expect(foldToolCallBefore({ tool: 't', originalInput: 'kept as made', outcomes: [run()], originalPreview: standIn }).input.original).toBe('kept as made');
  });

  it('is ignored for any other input, even an equal copy, and the fold makes its own', () => {
    const made = ToolInputPreview.of({ command: 'ls' });
    expect(made.textFor({ command: 'ls' })).toBeNull();
    const other = { command: 'rm -rf /tmp/x', password: 'hunter2-Secret9' };
    const r = foldToolCallBefore({ tool: 't', originalInput: other, outcomes: [run()], originalPreview: made });
    expect(r.input.original).toBe(foldToolCallBefore({ tool: 't', originalInput: other, outcomes: [run()] }).input.original);
    expect(r.input.original).not.toBe(made.text);
    expect(r.input.original).not.toContain('hunter2');
  });
});
