import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// A repository check: the committed, published schemas of @codewhale/hooks-payloads against its sources.
import {
  buildExecutionReceipt,
  buildMessageSubmitDocument,
  INITIAL_SESSION_STATE,
  LIMITS,
  lifecycleHookInput,
  observeSessionState,
  parseMessageSubmitStdout,
  parseToolCallBeforeStdout,
  utf8ByteLength,
  type LifecycleFact,
  type LifecycleSessionFacts,
  type SessionObservation,
  type SessionStateMachine,
  type ToolRunStatus,
} from '../packages/hooks-payloads/src/index.js';
import { hookIoSchemas } from '../packages/hooks-payloads/scripts/hook-io-schemas.mjs';

const schemaDir = join(import.meta.dirname, '../packages/hooks-payloads/schema');
const generated = hookIoSchemas(LIMITS) as Record<string, Record<string, unknown>>;
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validators = new Map(Object.entries(generated).map(([file, schema]) => [file, ajv.compile(schema)]));
function validator(kind: 'stdin' | 'stdout', event: string) {
  const v = validators.get(`${kind}/${event}.schema.json`);
  if (!v) throw new Error(`no ${kind} schema for ${event}`);
  return v;
}
/** Whether `doc` is valid, with ajv's errors as the failure message. */
function check(kind: 'stdin' | 'stdout', event: string, doc: unknown): { ok: boolean; why: string } {
  const v = validator(kind, event);
  const ok = v(doc) === true;
  return { ok, why: ok ? '' : `${kind}/${event}: ${ajv.errorsText(v.errors)}\n${JSON.stringify(doc).slice(0, 500)}` };
}

const committed = (): string[] =>
  readdirSync(schemaDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => relative(schemaDir, join(schemaDir, f)))
    .sort();

describe('the hook I/O JSON Schemas', () => {
  it('are each linked from the hook guide, whose schema links all name a file that exists', () => {
    const guide = readFileSync(join(import.meta.dirname, '../docs/hooks-guide.md'), 'utf8');
    const prefix = 'https://github.com/codewhale/codewhale/blob/main/packages/hooks-payloads/schema/';
    const linked = new Set([...guide.matchAll(/\]\((https:\/\/github\.com\/codewhale\/codewhale\/blob\/main\/packages\/hooks-payloads\/schema\/[^)]+)\)/g)].map((m) => m[1]!.slice(prefix.length)));
    expect([...linked].sort()).toEqual(Object.keys(generated).sort());
  });

  it('are committed exactly as the build writes them (regenerating gives no diff)', () => {
    expect(committed()).toEqual(Object.keys(generated).sort());
    for (const [file, schema] of Object.entries(generated)) {
      expect(readFileSync(join(schemaDir, file), 'utf8'), `${file}: run \`pnpm --filter @codewhale/hooks-payloads build\` and commit schema/`).toBe(`${JSON.stringify(schema, null, 2)}\n`);
    }
  });

  it('are valid draft 2020-12 schemas with a title, one per stdin document and steering stdout', () => {
    for (const schema of Object.values(generated)) {
      expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(typeof schema['title']).toBe('string');
      expect(ajv.validateSchema(schema)).toBe(true);
    }
    const events = (kind: string) =>
      Object.keys(generated)
        .filter((f) => f.startsWith(`${kind}/`))
        .map((f) => f.slice(kind.length + 1, -'.schema.json'.length))
        .sort();
    expect(events('stdin')).toEqual(
      ['message_submit', 'session_busy', 'session_error', 'session_idle', 'subagent_complete', 'subagent_spawn', 'tool_call_after', 'turn_end', 'waiting_for_user'].sort(),
    );
    expect(events('stdout')).toEqual(['message_submit', 'tool_call_before']);
  });
});

// ---- documents produced by the real builders -------------------------------------------------

const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('', 'ACT', 'plan', 'yolo', 'Agent'));
const nullableText = fc.option(text, { nil: null });
const tokens = fc.option(fc.oneof(fc.nat(), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER * 4, -5, Number.NaN)), { nil: null });
const sessionFacts: fc.Arbitrary<LifecycleSessionFacts> = fc.record({ workspace: nullableText, model: nullableText, mode: nullableText, totalTokens: tokens });
/** A long text now and then, so bounds and truncation markers are exercised. */
const longText = fc.oneof(
  text,
  fc.tuple(text, fc.integer({ min: 1, max: 3_000 })).map(([t, n]) => `${t}é✓`.repeat(n)),
);

const turn = fc.record({
  mode: nullableText,
  createdAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  modelBacked: fc.boolean(),
  provider: nullableText,
  billingSurface: fc.option(nullableText, { nil: undefined }),
  model: nullableText,
  turnId: text,
  status: nullableText,
  error: fc.option(nullableText, { nil: undefined }),
  durationMs: fc.oneof(fc.nat(), fc.double()),
  usage: fc.option(
    fc.record({
      inputTokens: fc.nat(),
      outputTokens: fc.nat(),
      promptCacheHitTokens: tokens,
      promptCacheMissTokens: tokens,
      promptCacheWriteTokens: tokens,
      reasoningTokens: tokens,
      reasoningReplayTokens: tokens,
    }),
    { nil: null },
  ),
  totals: fc.record({ sessionTokens: fc.nat(), conversationTokens: fc.nat(), inputTokens: fc.nat(), outputTokens: fc.nat() }),
  toolCount: fc.nat(),
  queuedMessageCount: fc.nat(),
});

const observation: fc.Arbitrary<SessionObservation> = fc.oneof(
  fc.record({ state: fc.constant('idle' as const), lastTurnStatus: fc.option(text, { nil: null }) }),
  fc.constant({ state: 'in_progress' as const }),
  fc.record({ state: fc.constant('waiting' as const), reason: fc.constantFrom('approval' as const, 'user_input' as const, 'goal_continuation' as const) }),
);

const shellRun = fc.record({
  toolName: fc.constantFrom('bash', 'Bash', 'exec_shell'),
  command: longText,
  cwd: fc.constantFrom('/work/repo', '/', 'C:\\repo', '/tmp/é ✓'),
  exitCode: fc.option(fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), { nil: null }),
  status: fc.constantFrom<ToolRunStatus>('completed', 'failed', 'timed_out', 'killed'),
  stdout: longText,
  stderr: longText,
  stdoutTruncated: fc.boolean(),
  stderrTruncated: fc.boolean(),
});

/** One lifecycle fact of each event that has a stdin document, as a surface reports it. */
const factWithDocument: fc.Arbitrary<LifecycleFact> = fc.oneof(
  fc.record({ event: fc.constant('turn_end' as const), facts: sessionFacts, turn }),
  fc.record({ event: fc.constant('session_error' as const), facts: sessionFacts, status: text, error: longText }),
  fc.record({ event: fc.constant('subagent_spawn' as const), facts: sessionFacts, agentId: text, prompt: longText }),
  fc.record({ event: fc.constant('subagent_complete' as const), facts: sessionFacts, agentId: text, result: longText, status: nullableText }),
  // A session-state transition from the real state machine (the first observation is silent).
  fc.tuple(sessionFacts, fc.array(observation, { minLength: 2, maxLength: 6 })).chain(([facts, seen]) => {
    let machine: SessionStateMachine = INITIAL_SESSION_STATE;
    const facts_: LifecycleFact[] = [];
    for (const o of seen) {
      const step = observeSessionState(machine, o);
      machine = step.machine;
      if (step.transition) facts_.push({ event: step.transition.event, facts, transition: step.transition });
    }
    return facts_.length > 0 ? fc.constantFrom(...facts_) : fc.constant<LifecycleFact>({ event: 'session_error', facts, status: 'failed', error: 'x' });
  }),
  fc.record({ facts: sessionFacts, run: shellRun, callId: nullableText }).chain(({ facts, run, callId }) => {
    const receipt = buildExecutionReceipt(run);
    return fc.constant<LifecycleFact>({ event: 'tool_call_after', facts, tool: { name: run.toolName, args: { command: run.command }, callId }, receipt });
  }),
);

describe('every stdin document the code builds validates against its schema', () => {
  it('lifecycle events (turn_end, subagent_*, session state, session_error, tool_call_after)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(factWithDocument, fc.option(text, { nil: null }), (fact, sessionId) => {
        const { stdin } = lifecycleHookInput(fact, sessionId);
        if (stdin === null) return; // tool_call_after without a receipt (or over 64 KiB) has none
        seen.add(fact.event);
        const r = check('stdin', fact.event, JSON.parse(stdin));
        expect(r.ok, r.why).toBe(true);
      }),
      { numRuns: 400 },
    );
    // Every kind was produced (the generators reach each event).
    expect([...seen].sort()).toEqual(['session_busy', 'session_error', 'session_idle', 'subagent_complete', 'subagent_spawn', 'tool_call_after', 'turn_end', 'waiting_for_user']);
  });

  it('message_submit, including texts cut to fit 32 KiB and metadata left out', () => {
    let cut = 0;
    fc.assert(
      fc.property(fc.record({ text: longText, sessionId: nullableText, workspace: fc.option(longText, { nil: null }), mode: nullableText, model: nullableText, totalTokens: tokens }), (input) => {
        const doc = buildMessageSubmitDocument(input);
        if (doc.textTruncated) cut++;
        const r = check('stdin', 'message_submit', JSON.parse(doc.json));
        expect(r.ok, r.why).toBe(true);
      }),
      { numRuns: 200 },
    );
    expect(cut).toBeGreaterThan(0);
  });

  it('the schemas are not loose: a real document with a key missing, added or of another type fails', () => {
    fc.assert(
      fc.property(factWithDocument, fc.nat(), fc.constantFrom('drop', 'add', 'retype'), (fact, pick, how) => {
        const { stdin } = lifecycleHookInput(fact, 'sess_12345678');
        if (stdin === null) return;
        const doc = JSON.parse(stdin) as Record<string, unknown>;
        const keys = Object.keys(doc).filter((k) => !(fact.event === 'session_idle' && k === 'last_turn_status'));
        const key = keys[pick % keys.length]!;
        if (how === 'drop') delete doc[key];
        else if (how === 'add') doc['unexpected_key'] = 1;
        else doc[key] = [doc[key]];
        expect(check('stdin', fact.event, doc).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

// ---- stdout: the schema and the parser agree -------------------------------------------------

const jsonish = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

describe('stdout decisions: the parser takes exactly what the schema allows', () => {
  it('tool_call_before: a valid decision parses without warnings and as written; a warning means the schema rejects it', () => {
    const bigInput = { command: 'x'.repeat(LIMITS.updatedInputMaxBytes) };
    const decision = fc.record(
      {
        decision: maybe(fc.oneof(fc.constantFrom('allow', 'deny', 'ask', 'Allow', 'block', ''), jsonish)),
        reason: maybe(fc.oneof(text, jsonish)),
        updatedInput: maybe(fc.oneof(fc.dictionary(fc.string(), jsonish, { maxKeys: 3 }), jsonish, fc.constant(bigInput))),
        additionalContext: maybe(fc.oneof(text, jsonish)),
        other: maybe(jsonish),
      },
      { requiredKeys: [] },
    );
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(decision, jsonish), (value) => {
        const stdout = JSON.stringify(value);
        const verdict = parseToolCallBeforeStdout(stdout);
        const schemaOk = check('stdout', 'tool_call_before', JSON.parse(stdout)).ok;
        // Over 32 KiB is the one rule a JSON Schema cannot say (the schema's description does).
        const shapeWarnings = verdict.warnings.filter((w) => !w.includes('exceeds'));
        if (shapeWarnings.length > 0) expect(schemaOk, `${stdout.slice(0, 300)}\nwarnings: ${shapeWarnings.join('; ')}`).toBe(false);
        if (!schemaOk) return;
        valid++;
        const o = value as Record<string, unknown>;
        expect(shapeWarnings).toEqual([]);
        expect(verdict.decision).toBe(o['decision'] ?? null);
        const fits = o['updatedInput'] !== undefined && utf8ByteLength(JSON.stringify(o['updatedInput'])) <= LIMITS.updatedInputMaxBytes;
        if (o['updatedInput'] === undefined || fits) expect(verdict.updatedInput).toEqual(o['updatedInput'] ?? null);
      }),
      { numRuns: 500 },
    );
    expect(valid).toBeGreaterThan(50);
  });

  it('message_submit: the schema accepts exactly the stdout the parser does not call invalid', () => {
    const reply = fc.record(
      {
        text: maybe(
          fc.oneof(
            text,
            fc.constant(''),
            fc.integer({ min: 31_998, max: 32_002 }).map((n) => '✓'.repeat(n)),
            jsonish,
          ),
        ),
        reason: maybe(text),
        other: maybe(jsonish),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(reply, jsonish), (value) => {
        const stdout = JSON.stringify(value);
        const parsed = parseMessageSubmitStdout(stdout);
        expect(check('stdout', 'message_submit', JSON.parse(stdout)).ok, `${stdout.slice(0, 200)} parsed as ${parsed.kind}`).toBe(parsed.kind !== 'invalid');
        if (parsed.kind === 'replace') expect(parsed.text).toBe((value as { text: string }).text);
      }),
      { numRuns: 500 },
    );
    // The bound itself, counted in code points (an astral character is one).
    for (const n of [1, LIMITS.messageSubmitReplacementMaxChars, LIMITS.messageSubmitReplacementMaxChars + 1]) {
      const stdout = JSON.stringify({ text: '😀'.repeat(n) });
      expect(check('stdout', 'message_submit', JSON.parse(stdout)).ok, `${n} characters`).toBe(parseMessageSubmitStdout(stdout).kind === 'replace');
    }
  });
});
