import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  buildTurnEndDocument,
  buildSubagentSpawnDocument,
  buildSubagentCompleteDocument,
  buildSessionErrorDocument,
  subagentPreview,
  subagentCompletionStatus,
  type TurnEndInput,
} from './observer-documents.js';
import { utf8ByteLength, isWellFormed } from './utf8.js';

const TEXT_MARK = '\u2026[truncated]';
const ENV_MARK = '...[truncated]';

const turn: TurnEndInput = {
  sessionId: 'sess_12345678',
  workspace: '/path/to/workspace',
  mode: 'Agent',
  createdAt: Date.parse('2026-07-12T10:30:00Z'),
  modelBacked: true,
  provider: 'deepseek',
  billingSurface: null,
  model: 'deepseek-chat',
  turnId: 'turn_12345678',
  status: 'completed',
  error: null,
  durationMs: 1834,
  usage: {
    inputTokens: 1200,
    outputTokens: 180,
    promptCacheHitTokens: 900,
    promptCacheMissTokens: 300,
    promptCacheWriteTokens: 0,
    reasoningTokens: null,
    reasoningReplayTokens: null,
  },
  totals: { sessionTokens: 1380, conversationTokens: 1380, inputTokens: 1200, outputTokens: 180 },
  toolCount: 2,
  queuedMessageCount: 1,
};

describe('buildTurnEndDocument (reference §15)', () => {
  it('is exactly the contract example, keys in contract order', () => {
    expect(JSON.stringify(buildTurnEndDocument(turn))).toBe(
      '{"event":"turn_end","session_id":"sess_12345678","workspace":"/path/to/workspace","mode":"ACT",' +
        '"created_at":"2026-07-12T10:30:00+00:00","model_backed":true,"provider":"deepseek","billing_surface":null,' +
        '"model":"deepseek-chat","turn_id":"turn_12345678","status":"completed","error":null,"duration_ms":1834,' +
        '"usage":{"input_tokens":1200,"output_tokens":180,"prompt_cache_hit_tokens":900,"prompt_cache_miss_tokens":300,' +
        '"prompt_cache_write_tokens":0,"reasoning_tokens":null,"reasoning_replay_tokens":null},' +
        '"totals":{"session_tokens":1380,"conversation_tokens":1380,"input_tokens":1200,"output_tokens":180},' +
        '"tool_count":2,"queued_message_count":1,"stop_hook_active":false}',
    );
  });

  it('writes created_at with +00:00 and milliseconds only when non-zero', () => {
    expect(buildTurnEndDocument({ ...turn, createdAt: new Date('2026-07-12T10:30:00.125Z') }).created_at).toBe('2026-07-12T10:30:00.125+00:00');
  });

  it('reports a completion with no model turn as not model-backed, with no provider or billing surface', () => {
    const doc = buildTurnEndDocument({ ...turn, modelBacked: false, provider: 'deepseek', billingSurface: 'stepfun-plan', turnId: 'lifecycle_0d4c' });
    expect(doc).toMatchObject({ model_backed: false, provider: null, billing_surface: null, model: 'deepseek-chat', turn_id: 'lifecycle_0d4c' });
  });

  it('keeps a billing surface for a model-backed turn and never writes a base URL', () => {
    const doc = buildTurnEndDocument({ ...turn, billingSurface: 'stepfun-payg' });
    expect(doc.billing_surface).toBe('stepfun-payg');
    expect(JSON.stringify(doc)).not.toContain('base_url');
  });

  it('sanitizes and bounds the error at 2,000 chars', () => {
    expect(buildTurnEndDocument({ ...turn, error: 'bad\u001b[31m thing\r\n' }).error).toBe('bad[31m thing\n');
    const long = buildTurnEndDocument({ ...turn, error: 'e'.repeat(5_000) }).error as string;
    expect(long).toBe(`${'e'.repeat(2_000)}${TEXT_MARK}`);
  });

  it('defaults status to unknown, zeroes missing usage and saturates counts', () => {
    const doc = buildTurnEndDocument({ ...turn, status: null, usage: null, durationMs: -5, toolCount: 2.7, queuedMessageCount: Number.POSITIVE_INFINITY });
    expect(doc.status).toBe('unknown');
    expect(doc.usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      prompt_cache_hit_tokens: null,
      prompt_cache_miss_tokens: null,
      prompt_cache_write_tokens: null,
      reasoning_tokens: null,
      reasoning_replay_tokens: null,
    });
    expect(doc.duration_ms).toBe(0);
    expect(doc.tool_count).toBe(2);
    expect(doc.queued_message_count).toBe(0);
    expect(buildTurnEndDocument({ ...turn, durationMs: 1e300 }).duration_ms).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('stop_hook_active is always false', () => {
    expect(buildTurnEndDocument(turn).stop_hook_active).toBe(false);
  });
});

describe('sub-agent documents (reference §16)', () => {
  const common = { agentId: 'agent_1', sessionId: 'sess_12345678', workspace: '/w', mode: 'act', model: 'deepseek-chat', totalTokens: 1234 };

  it('subagent_spawn carries a prompt preview, keys in contract order', () => {
    const doc = buildSubagentSpawnDocument({ ...common, prompt: 'do the thing' });
    expect(Object.keys(doc)).toEqual(['event', 'agent_id', 'session_id', 'workspace', 'mode', 'model', 'total_tokens', 'prompt_preview', 'prompt_truncated']);
    expect(doc).toMatchObject({ event: 'subagent_spawn', mode: 'ACT', prompt_preview: 'do the thing', prompt_truncated: false });
  });

  it('subagent_complete carries a result preview and a status, keys in contract order', () => {
    const doc = buildSubagentCompleteDocument({ ...common, result: 'bounded preview of the result' });
    expect(JSON.stringify(doc)).toBe(
      '{"event":"subagent_complete","agent_id":"agent_1","session_id":"sess_12345678","workspace":"/w","mode":"ACT",' +
        '"model":"deepseek-chat","total_tokens":1234,"result_preview":"bounded preview of the result","result_truncated":false,"status":"unknown"}',
    );
    expect(buildSubagentCompleteDocument({ ...common, result: 'x', status: 'completed' }).status).toBe('completed');
    expect(buildSubagentCompleteDocument({ ...common, result: 'failed: boom' }).status).toBe('failed');
  });

  it('bounds previews on character boundaries: 鲸 × 900 + tail', () => {
    const text = `${'鲸'.repeat(900)}tail`;
    const p = subagentPreview(text);
    expect(p.truncated).toBe(true);
    expect(p.preview).toBe(`${'鲸'.repeat(682)}${ENV_MARK}`);
    expect(utf8ByteLength(p.preview)).toBeLessThanOrEqual(2_048 + 14);
    expect(p.preview).not.toContain('tail');
    expect(p.preview).not.toContain('\ufffd');
    const doc = buildSubagentSpawnDocument({ ...common, prompt: text });
    expect(doc.prompt_preview).toBe(p.preview);
    expect(doc.prompt_truncated).toBe(true);
  });

  it('keeps a preview of at most 2,048 bytes as is', () => {
    expect(subagentPreview('x'.repeat(2_048))).toEqual({ preview: 'x'.repeat(2_048), truncated: false });
    expect(subagentPreview('x'.repeat(2_049)).truncated).toBe(true);
  });
});

describe('subagentCompletionStatus', () => {
  it.each([
    ['<codewhale:subagent.done>{"status":"completed"}</codewhale:subagent.done>', 'completed'],
    ['summary\n<codewhale:subagent.done>{"status":"budget_exhausted","x":1}</codewhale:subagent.done>', 'budget_exhausted'],
    ['Failed: nope\n<codewhale:subagent.done>{"status":"interrupted"}</codewhale:subagent.done>', 'interrupted'],
    ['cancelled', 'cancelled'],
    ['Canceled', 'cancelled'],
    ['CANCELLED: by the user', 'cancelled'],
    ['canceled: timeout', 'cancelled'],
    ['\n\n  failed  \nmore', 'failed'],
    ['failed: exit 1', 'failed'],
    ['Interrupted', 'interrupted'],
    ['interrupted: ctrl-c', 'interrupted'],
    ['All done, tests pass.', 'unknown'],
    ['completed', 'unknown'],
    ['failedness', 'unknown'],
    ['', 'unknown'],
    ['<codewhale:subagent.done>not json</codewhale:subagent.done>', 'unknown'],
    ['<codewhale:subagent.done>{"status":""}</codewhale:subagent.done>\nfailed', 'unknown'],
    ['<codewhale:subagent.done>{"status":7}</codewhale:subagent.done>', 'unknown'],
  ])('%j → %s', (result, status) => {
    expect(subagentCompletionStatus(result)).toBe(status);
  });

  it('sanitizes a sentinel status', () => {
    expect(subagentCompletionStatus('<codewhale:subagent.done>{"status":"ok\\u001b[2J"}</codewhale:subagent.done>')).toBe('ok[2J');
  });
});

describe('buildSessionErrorDocument', () => {
  it('is exactly {status, error}, the error sanitized and bounded at 2,000 chars', () => {
    expect(JSON.stringify(buildSessionErrorDocument('failed', 'model said\u0007 no'))).toBe('{"status":"failed","error":"model said no"}');
    expect(buildSessionErrorDocument('failed', 'z'.repeat(3_000)).error).toBe(`${'z'.repeat(2_000)}${TEXT_MARK}`);
  });
});

describe('properties', () => {
  it('previews are bounded, well-formed, and a prefix of the text', () => {
    const text = fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 1_500 })).map(([u, n]) => u.repeat(n));
    fc.assert(
      fc.property(text, (t) => {
        const p = subagentPreview(t);
        expect(utf8ByteLength(p.preview)).toBeLessThanOrEqual(2_048 + 14);
        expect(isWellFormed(p.preview)).toBe(true);
        const head = p.truncated ? p.preview.slice(0, -ENV_MARK.length) : p.preview;
        expect(t.startsWith(head)).toBe(true);
        expect(p.truncated).toBe(utf8ByteLength(t) > 2_048);
      }),
      { numRuns: 200 },
    );
  });
});

describe('observer metadata is bounded before it reaches a hook', () => {
  it('caps and defangs session id, workspace, model, provider, turn id and agent id at 4,096 bytes', () => {
    const huge = 'w\u001b'.repeat(10_000);
    const turn = buildTurnEndDocument({
      sessionId: huge,
      workspace: huge,
      mode: 'work',
      createdAt: 0,
      modelBacked: true,
      provider: huge,
      model: huge,
      turnId: huge,
      status: huge,
      durationMs: 1,
      usage: null,
      totals: { sessionTokens: 0, conversationTokens: 0, inputTokens: 0, outputTokens: 0 },
      toolCount: 0,
      queuedMessageCount: 0,
    });
    for (const key of ['session_id', 'workspace', 'provider', 'model', 'turn_id', 'status']) {
      const v = turn[key] as string;
      expect(new TextEncoder().encode(v).length, key).toBeLessThanOrEqual(4_096 + 14);
      expect(v, key).not.toContain('\u001b');
      expect(v.endsWith('...[truncated]'), key).toBe(true);
    }
    const spawn = buildSubagentSpawnDocument({ agentId: huge, sessionId: null, workspace: null, mode: null, model: huge, totalTokens: null, prompt: 'p' });
    expect(new TextEncoder().encode(spawn.agent_id as string).length).toBeLessThanOrEqual(4_096 + 14);
    const done = buildSubagentCompleteDocument({ agentId: 'a', sessionId: null, workspace: null, mode: null, model: null, totalTokens: null, result: 'r', status: 'completed\u001b[2J' });
    expect(done.status).toBe('completed[2J');
  });
});
