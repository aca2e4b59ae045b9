import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldToolCallBefore, type GateDecisionRecord } from '@codewhale/hooks-payloads';
import { planToolCall, type PermissionVerdict, type PlanToolCallInput } from './plan-tool-call.js';
import { BUILTIN_TOOLS } from './tools/registry.js';
import type { Posture } from './modes.js';

const TOOLS = new Map(BUILTIN_TOOLS.map((t) => [t.name, t]));

/** A decision record as the supervisor would fold it (no hooks ran: the decision is given). */
function record(decision: 'allow' | 'deny' | 'ask', updatedInput: Record<string, unknown> | null = null): GateDecisionRecord {
  const base = foldToolCallBefore({ tool: 'bash', originalInput: {}, outcomes: [] });
  return { ...base, decision, message: decision === 'deny' ? 'no' : null, updatedInput, additionalContext: null };
}

function input(over: Partial<PlanToolCallInput> & { args?: unknown; name?: string }): PlanToolCallInput {
  const { args = { command: 'ls' }, name = 'bash', ...rest } = over;
  return {
    call: { id: 'c1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    tools: TOOLS,
    knownTools: BUILTIN_TOOLS,
    workspace: '/ws',
    mode: 'work',
    posture: 'ask',
    model: 'm',
    gate: null,
    ...rest,
  };
}

describe('planToolCall: the order of the gate chain', () => {
  it('refuses before any hook: unknown tool, invalid JSON, Plan mode, schema', async () => {
    let gateCalls = 0;
    const gate = async () => (gateCalls++, record('allow'));
    expect(await planToolCall(input({ name: 'nope', gate }))).toMatchObject({ kind: 'blocked', stage: 'lookup', error: { kind: 'unknown_tool' } });
    expect(await planToolCall(input({ args: '{not json', gate }))).toMatchObject({ kind: 'blocked', stage: 'parse', error: { kind: 'parse_error' } });
    expect(await planToolCall(input({ mode: 'plan', gate }))).toMatchObject({ kind: 'blocked', stage: 'mode', error: { kind: 'plan_mode' } });
    expect(await planToolCall(input({ args: { cmd: 1 }, gate }))).toMatchObject({ kind: 'blocked', stage: 'schema', error: { kind: 'invalid_input' } });
    expect(gateCalls).toBe(0);
    // Plan mode still lets read tools through to the hooks.
    expect(await planToolCall(input({ mode: 'plan', name: 'read', args: { path: 'a' }, gate }))).toMatchObject({ kind: 'ready' });
    expect(gateCalls).toBe(1);
  });

  it('hooks see the schema-prepared input, and a rewrite is prepared again', async () => {
    let seen: unknown;
    const ok = await planToolCall(
      input({
        gate: async (c) => {
          seen = c.input;
          return record('allow', { command: 'ls -la' });
        },
      }),
    );
    expect(seen).toMatchObject({ command: 'ls' });
    expect(ok).toMatchObject({ kind: 'ready', input: { command: 'ls -la' } });
    const bad = await planToolCall(input({ gate: async () => record('allow', { cmd: 'x' }) }));
    expect(bad).toMatchObject({ kind: 'blocked', stage: 'rewrite', input: { cmd: 'x' } });
    expect(bad.kind === 'blocked' && bad.issues).toMatch(/command/);
  });

  it('the permission check sees the rewritten input', async () => {
    let seen: unknown;
    await planToolCall(
      input({
        gate: async () => record('allow', { command: 'rm -rf /' }),
        permissions: (c) => {
          seen = c.input;
          return null;
        },
      }),
    );
    expect(seen).toMatchObject({ command: 'rm -rf /' });
  });
});

type HookVerdict = 'allow' | 'deny' | 'ask' | null;
type Rule = PermissionVerdict['action'] | null;

/** The documented precedence, written out independently of the implementation. */
function expected(hook: HookVerdict, rule: Rule, posture: Posture, failsClosed: boolean, kind: 'read' | 'shell', dangerous: boolean): string {
  if (hook === 'deny') return 'blocked:hooks';
  if (rule === 'deny') return 'blocked:permissions';
  const asked = hook === 'ask' ? 'hook' : rule === 'ask' ? 'permission' : null;
  if (asked && failsClosed) return 'blocked:hooks';
  if (asked && posture !== 'full_access') return `ready:${asked}`;
  if (rule === 'allow' || asked) return 'ready:none';
  if (posture === 'full_access' || kind === 'read') return 'ready:none';
  if (posture === 'auto_review') return dangerous ? 'blocked:posture' : 'ready:none';
  return 'ready:posture';
}

describe('planToolCall: precedence of hooks, typed rules and postures', () => {
  it('matches the documented order for every combination', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<HookVerdict>('allow', 'deny', 'ask', null),
        fc.constantFrom<Rule>('allow', 'ask', 'deny', null),
        fc.constantFrom<Posture>('ask', 'auto_review', 'full_access'),
        fc.boolean(),
        fc.constantFrom<'read' | 'shell'>('read', 'shell'),
        fc.boolean(),
        async (hook, rule, posture, failsClosed, kind, dangerous) => {
          const args = kind === 'read' ? { path: 'a.txt' } : { command: dangerous ? 'rm -rf /' : 'ls' };
          const plan = await planToolCall(
            input({
              name: kind === 'read' ? 'read' : 'bash',
              args,
              posture,
              askFailsClosed: failsClosed,
              gate: hook === null ? null : async () => record(hook),
              permissions: rule === null ? null : () => ({ action: rule, origin: 'permissions.toml:1' }),
            }),
          );
          const got = plan.kind === 'blocked' ? `blocked:${plan.stage}` : `ready:${plan.approval ?? 'none'}`;
          expect(got).toBe(expected(hook, rule, posture, failsClosed, kind, dangerous));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a typed deny blocks even under Full Access; a typed allow never clears a hook ask', async () => {
    const deny = await planToolCall(input({ posture: 'full_access', permissions: () => ({ action: 'deny', origin: 'permissions.toml:3' }) }));
    expect(deny).toMatchObject({ kind: 'blocked', stage: 'permissions' });
    expect(deny.kind === 'blocked' && deny.error.message).toContain('permissions.toml:3');
    const ask = await planToolCall(input({ gate: async () => record('ask'), permissions: () => ({ action: 'allow', origin: 'permissions.toml:1' }) }));
    expect(ask).toMatchObject({ kind: 'ready', approval: 'hook' });
  });

  it('"allow for this session" skips the Ask prompt for that tool only', async () => {
    expect(await planToolCall(input({ sessionAllowed: new Set(['bash']) }))).toMatchObject({ kind: 'ready', approval: null });
    expect(await planToolCall(input({ name: 'write', args: { path: 'a', content: 'b' }, sessionAllowed: new Set(['bash']) }))).toMatchObject({ kind: 'ready', approval: 'posture' });
  });
});
