import fc from 'fast-check';
import { foldToolCallBefore, type GateDecisionRecord } from '@codewhale/hooks-payloads';
import { describe, expect, it } from 'vitest';
import { appendHookContext, gateOf } from './tool-gate.js';
import { shellEnvCall, toolCallAfterFacts } from './tool-rules.js';

const base = foldToolCallBefore({ tool: 'bash', callId: 'c', originalInput: { command: 'ls' }, outcomes: [] });
const record = (over: Partial<GateDecisionRecord>): GateDecisionRecord => ({ ...base, ...over });

describe('gateOf: the precedence of deny, a refused rewrite, a rewrite and the original', () => {
  it('holds for every decision, rewrite and validator answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('allow', 'ask', 'deny'),
        fc.option(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), { nil: null }),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.string({ maxLength: 20 }), { nil: null }),
        async (decision, updatedInput, accepts, context) => {
          const r = record({ decision, updatedInput, additionalContext: context, message: decision === 'deny' ? 'denied: x' : null });
          const validate = accepts === undefined ? null : (v: unknown) => (accepts ? { ok: true as const, value: { prepared: v } } : { ok: false as const, issues: 'nope' });
          const g = await gateOf(r, { original: true }, validate);
          if (decision === 'deny') {
            expect(g).toMatchObject({ decision: 'deny', reason: 'denied: x', input: { original: true }, invalidRewrite: null, context: null });
          } else if (updatedInput && accepts === false) {
            expect(g).toMatchObject({ decision: 'deny', invalidRewrite: 'nope', context: null });
          } else if (updatedInput) {
            expect(g.decision).toBe(decision);
            expect(g.input).toEqual(accepts ? { prepared: updatedInput } : updatedInput);
            expect(g.rewritten).toBe(true);
            expect(g.context).toBe(context);
          } else {
            expect(g).toMatchObject({ decision, input: { original: true }, rewritten: false, context });
          }
        },
      ),
    );
  });
});

describe('appendHookContext', () => {
  it('appends exactly one [hook context] block, and nothing without context', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: null }), (text, context) => {
        const out = appendHookContext(text, context);
        expect(out).toBe(context ? `${text}\n\n[hook context] ${context}` : text);
      }),
    );
  });
});

describe('shellEnvCall', () => {
  it('fires only for the three spellings of the shell tool, always as exec_shell', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('bash', 'Bash', 'exec_shell', 'BASH', 'read_file', 'mcp__x__bash'), fc.string()), fc.jsonValue(), (name, input) => {
        const call = shellEnvCall(name, input);
        if (['bash', 'Bash', 'exec_shell'].includes(name)) expect(call).toEqual({ name: 'exec_shell', input });
        else expect(call).toBeNull();
      }),
    );
  });
});

describe('toolCallAfterFacts', () => {
  it('a refused call is no failure for on_error and carries no exit code, status or receipt; a failure of any tool fires on_error', () => {
    fc.assert(
      fc.property(fc.constantFrom('bash', 'read_file'), fc.boolean(), fc.boolean(), fc.option(fc.integer({ min: -5, max: 300 }), { nil: null }), (name, success, denied, exitCode) => {
        const f = toolCallAfterFacts({
          name,
          input: { command: 'x' },
          result: 'r',
          success,
          denied,
          exitCode,
          status: 'completed',
          receipt: { command: 'x', cwd: '/tmp', exitCode, status: 'completed', stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false },
        });
        expect(f.onError).toBe(!success && !denied);
        if (denied) expect(f.tool).toMatchObject({ success: false, exitCode: null, status: null, executionReceipt: null });
        else expect(f.tool.exitCode).toBe(exitCode);
        if (name !== 'bash') expect(f.receipt).toBeNull();
        if (name === 'bash' && !denied) expect(f.tool.executionReceipt).toBe(f.receipt?.env ?? null);
      }),
    );
  });
});
