import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HookDefinition } from '@codewhale/hooks-config';
import { HookRuntime, type HookRuntimeOptions, type RevocationCheck } from './hook-runtime.js';
import { hookDef, hookSet, SPAWNERS, useSpawner } from '../test/helpers.js';

// Hooks of one event run one after the other (HookChain). Every rule is checked on both ways
// of starting a process: they must not change what runs, in which order, or what stops it.

const dir = mkdtempSync(join(tmpdir(), 'cw-chain-'));
const runtimes: HookRuntime[] = [];
let n = 0;
const out = (name: string) => join(dir, `${++n}-${name}`);
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
const call = { name: 'bash', callId: 'call_1', input: { command: 'ls' } };

function runtime(hooks: HookDefinition[], over: Partial<HookRuntimeOptions> = {}): HookRuntime {
  const r = new HookRuntime({ hooks: hookSet(hooks), workspace: dir, parentEnv: { PATH: process.env.PATH, HOME: dir }, ...over });
  runtimes.push(r);
  return r;
}

const gate = (name: string, command: string, strict = false) => hookDef('tool_call_before', command, { name, continueOnError: !strict });

afterEach(async () => {
  for (const r of runtimes.splice(0)) {
    await r.idle();
    await r.close();
  }
});
afterAll(() => useSpawner(null));

describe.each(SPAWNERS)('hook chains (%s)', (spawner) => {
  beforeAll(() => useSpawner(spawner));

  it('runs the gates in config order, each after the one before it ended, each timed on its own', async () => {
    const file = out('order');
    const step = (i: number) => gate(`g${i}`, `echo start${i} >> ${file}; sleep 0.15; echo end${i} >> ${file}`);
    const r = runtime([step(1), step(2), step(3)]);
    const record = await r.toolCallBefore(call);
    expect(lines(file)).toEqual(['start1', 'end1', 'start2', 'end2', 'start3', 'end3']);
    expect(record.decision).toBe('allow');
    expect(record.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['g1', 'no_decision'],
      ['g2', 'no_decision'],
      ['g3', 'no_decision'],
    ]);
    for (const h of record.hooks) expect(h.durationMs).toBeGreaterThanOrEqual(140);
  });

  it('a strict gate without a verdict stops the later gates: they never start and are reported skipped', async () => {
    const file = out('after-strict');
    const r = runtime([gate('ok', 'true'), gate('strict', 'exit 1', true), gate('later', `touch ${file}`)]);
    const record = await r.toolCallBefore(call);
    expect(record.decision).toBe('deny');
    expect(record.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['ok', 'no_decision'],
      ['strict', 'no_verdict'],
      ['later', 'skipped'],
    ]);
    await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(file)).toBe(false);
  });

  it('a strict gate that failed but answered does not stop the later gates ', async () => {
    const file = out('after-answer');
    const r = runtime([gate('answered', `echo '{"decision":"allow"}'; exit 1`, true), gate('later', `touch ${file}; echo '{"decision":"deny","reason":"later says no"}'`)]);
    const record = await r.toolCallBefore(call);
    expect(existsSync(file)).toBe(true);
    expect(record.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['answered', 'allow'],
      ['later', 'deny'],
    ]);
    expect(record.decision).toBe('deny');
  });

  it('checks a revocable hook right before its own start, even in the middle of a chain', async () => {
    const flag = out('revoked');
    const ran = out('revocable-ran');
    const asked: string[] = [];
    const check: RevocationCheck = Object.assign(
      (hook: HookDefinition) => {
        asked.push(hook.label);
        return existsSync(flag) ? 'approval revoked' : null;
      },
      { appliesTo: (hook: HookDefinition) => hook.name === 'project' },
    );
    const last = out('last-ran');
    // The first gate revokes while the chain runs; the revocable one must see it.
    const r = runtime([gate('revoker', `touch ${flag}`), gate('project', `touch ${ran}`), gate('last', `touch ${last}`)], { isRevoked: check });
    const record = await r.toolCallBefore(call);
    expect(asked).toEqual(['project']);
    expect(existsSync(ran)).toBe(false);
    expect(record.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['revoker', 'no_decision'],
      ['project', 'no_verdict'],
      ['last', 'no_decision'],
    ]);
    expect(existsSync(last)).toBe(true);
  });

  it('a gate that cannot be started is a spawn failure; a strict one stops the later gates, a lenient one does not', async () => {
    const missing = join(dir, 'missing-dir');
    const lenient = await runtime([gate('nowhere', 'true'), gate('later', 'true')], { workspace: missing }).toolCallBefore(call);
    expect(lenient.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['nowhere', 'no_verdict'],
      ['later', 'no_verdict'],
    ]);
    expect(lenient.decision).toBe('allow');
    const strict = await runtime([gate('nowhere', 'true', true), gate('later', 'true')], { workspace: missing }).toolCallBefore(call);
    expect(strict.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['nowhere', 'no_verdict'],
      ['later', 'skipped'],
    ]);
    expect(strict.decision).toBe('deny');
  });

  it('shell_env: every hook runs even when one fails, and the others still contribute', async () => {
    const r = runtime([hookDef('shell_env', 'echo A=1', { name: 'a' }), hookDef('shell_env', 'exit 3', { name: 'broken' }), hookDef('shell_env', 'echo B=2', { name: 'b' })]);
    const env = await r.shellEnv({ name: 'bash', input: { command: 'ls' } });
    expect(Object.fromEntries(env.vars)).toEqual({ A: '1', B: '2' });
    expect(env.hooks.map((h) => [h.label, h.outcome.success])).toEqual([
      ['a', true],
      ['broken', false],
      ['b', true],
    ]);
  });

  it('session_start: a failing strict hook stops the later ones; a background hook between foreground ones keeps its place', async () => {
    const file = out('lifecycle');
    const r = runtime([
      hookDef('session_start', `echo one >> ${file}`, { name: 'one' }),
      hookDef('session_start', `echo bg >> ${file}`, { name: 'bg', background: true }),
      hookDef('session_start', `echo three >> ${file}; exit 1`, { name: 'three', continueOnError: false }),
      hookDef('session_start', `echo four >> ${file}`, { name: 'four' }),
    ]);
    const outcomes = await r.runNow('session_start', {});
    expect(outcomes.map((o) => o.hook.name)).toEqual(['one', 'bg', 'three']);
    await r.idle();
    await new Promise((res) => setTimeout(res, 100));
    expect(lines(file).sort()).toEqual(['bg', 'one', 'three']);
  });
});
