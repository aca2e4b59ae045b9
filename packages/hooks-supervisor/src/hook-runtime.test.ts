import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookDefinition } from '@codewhale/hooks-config';
import { HookRuntime, type HookRuntimeOptions } from './hook-runtime.js';
import { ObserverDispatcher } from './observer-dispatcher.js';
import { JsonlLog } from './audit-log.js';
import { MemoryLogger } from './logger.js';
import { hookDef, hookSet, procTable, SPAWNERS, until, useSpawner } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-runtime-'));
const runtimes: HookRuntime[] = [];
let n = 0;

function runtime(hooks: HookDefinition[], over: Partial<HookRuntimeOptions> = {}): HookRuntime {
  const r = new HookRuntime({ hooks: hookSet(hooks), workspace: dir, parentEnv: { PATH: process.env.PATH, HOME: dir }, ...over });
  runtimes.push(r);
  return r;
}

/** A message_submit hook (a real node process) that appends a word to the text it is given. */
const appendWord = (word: string) => `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const d=JSON.parse(s);console.log(JSON.stringify({text:d.text+" ${word}"}))})'`;

/** A file path unique to this test, for hooks to write into. */
const out = (name: string) => join(dir, `${++n}-${name}`);

afterEach(async () => {
  for (const r of runtimes.splice(0)) {
    await r.idle();
    await r.close();
  }
  expect(procTable().filter((p) => p.ppid === process.pid && p.state === 'Z')).toEqual([]);
});

describe('HookRuntime: session identity', () => {
  it('mints one sess_ id, exports it in both spellings, and keeps it across a rebind', async () => {
    const file = out('ids');
    const r = runtime([hookDef('session_start', `echo "$DEEPSEEK_SESSION_ID $CODEWHALE_SESSION_ID" >> ${file}`)]);
    expect(r.sessionId).toMatch(/^sess_[0-9a-f]{8}$/);
    await r.runNow('session_start', {});
    r.rebind(hookSet([hookDef('session_start', `echo "$DEEPSEEK_SESSION_ID $CODEWHALE_SESSION_ID" >> ${file}`)]));
    await r.runNow('session_start', {});
    expect(readFileSync(file, 'utf8')).toBe(`${r.sessionId} ${r.sessionId}\n`.repeat(2));
    expect(runtime([]).sessionId).not.toBe(r.sessionId);
  });

  it('fires nothing when the set is globally disabled', async () => {
    const file = out('disabled');
    const r = new HookRuntime({ hooks: hookSet([hookDef('session_start', `touch ${file}`)], { enabled: false }), workspace: dir });
    runtimes.push(r);
    expect(await r.runNow('session_start', {})).toEqual([]);
    expect(r.fire('turn_end', {}, '{}')).toEqual({ ok: true });
    await r.idle();
    expect(existsSync(file)).toBe(false);
  });
});

describe('HookRuntime: tool_call_before', () => {
  const call = { name: 'bash', callId: 'call_1', input: { command: 'rm -rf /' }, mode: 'work', model: 'deepseek-chat' };

  it('gives the gate the engine context: tool name, call id, args, engine mode spelling, no token total', async () => {
    const file = out('gate-env');
    const r = runtime([hookDef('tool_call_before', `env | grep -E '^(DEEPSEEK|CODEWHALE)_' | sort > ${file}`)]);
    await r.toolCallBefore(call);
    const env = readFileSync(file, 'utf8');
    expect(env).toContain('DEEPSEEK_TOOL_NAME=bash\n');
    expect(env).toContain('DEEPSEEK_TOOL_CALL_ID=call_1\n');
    expect(env).toContain('CODEWHALE_TOOL_CALL_ID=call_1\n');
    expect(env).toContain('DEEPSEEK_TOOL_ARGS={"command":"rm -rf /"}\n');
    expect(env).toContain('DEEPSEEK_MODE=Agent\n');
    expect(env).toContain(`DEEPSEEK_WORKSPACE=${dir}\n`);
    expect(env).not.toContain('DEEPSEEK_TOTAL_TOKENS');
  });

  it('denies on exit 2 with the structured reason redacted', async () => {
    const r = runtime([hookDef('tool_call_before', `echo '{"reason":"blocked /etc/passwd --force token=abc"}'; exit 2`, { name: 'guard' })]);
    const d = await r.toolCallBefore(call);
    expect(d.decision).toBe('deny');
    expect(d.message).toBe("ToolCallBefore hook denied tool 'bash': blocked [path] [argument] [secret]");
  });

  it('a strict gate that times out denies, naming only the hook and the timeout', async () => {
    const r = runtime([hookDef('tool_call_before', 'sleep 30', { name: 'slow-gate', continueOnError: false, effectiveTimeoutSecs: 1 })]);
    const d = await r.toolCallBefore(call);
    expect(d.decision).toBe('deny');
    expect(d.message).toBe("ToolCallBefore hook returned no verdict for tool 'bash' and `continue_on_error = false` is configured: slow-gate: hook timed out after 1s");
    expect(d.message).not.toContain('sleep');
  });

  it('a lenient gate that times out does not deny', async () => {
    const r = runtime([hookDef('tool_call_before', 'sleep 30', { name: 'slow', effectiveTimeoutSecs: 1 })]);
    const d = await r.toolCallBefore(call);
    expect(d.decision).toBe('allow');
    expect(d.hooks[0]).toMatchObject({ outcome: 'no_verdict', detail: 'hook timed out after 1s' });
  });

  it('a failing strict hook stops the later hooks, which the record shows as skipped', async () => {
    const file = out('never');
    const r = runtime([hookDef('tool_call_before', 'exit 1', { name: 'strict', continueOnError: false }), hookDef('tool_call_before', `touch ${file}`, { name: 'later' })]);
    const d = await r.toolCallBefore(call);
    expect(d.decision).toBe('deny');
    expect(d.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['strict', 'no_verdict'],
      ['later', 'skipped'],
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('strictness is read off the hook that matched: a strict write gate has no say over bash', async () => {
    const r = runtime([
      hookDef('tool_call_before', 'exit 1', { name: 'write-gate', continueOnError: false, condition: { type: 'tool_name', name: 'write' } }),
      hookDef('tool_call_before', `echo '{"decision":"allow"}'`, { name: 'ok' }),
    ]);
    const d = await r.toolCallBefore(call);
    expect(d.decision).toBe('allow');
    expect(d.hooks.map((h) => h.label)).toEqual(['ok']);
  });

  it('rewrites input (last writer wins) and joins context', async () => {
    const r = runtime([
      hookDef('tool_call_before', `echo '{"decision":"allow","updatedInput":{"command":"ls"},"additionalContext":"one"}'`),
      hookDef('tool_call_before', `echo '{"updatedInput":{"command":"ls -la"},"additionalContext":"two"}'`),
    ]);
    const d = await r.toolCallBefore(call);
    expect(d).toMatchObject({ decision: 'allow', updatedInput: { command: 'ls -la' }, additionalContext: 'one\ntwo' });
    expect(d.input).toEqual({ original: '{"command":"rm -rf /"}', rewritten: '{"command":"ls -la"}' });
  });

  it('a background gate is submitted, warned about, and can never deny', async () => {
    const logger = new MemoryLogger();
    const r = runtime([hookDef('tool_call_before', `echo '{"decision":"deny"}'; exit 2`, { background: true })], { logger });
    const d = await r.toolCallBefore(call);
    expect(d.decision).toBe('allow');
    expect(d.hooks[0]!.outcome).toBe('submitted');
    expect(logger.records.some((x) => x.message.startsWith('tool_call_before hook(s) configured with background = true'))).toBe(true);
  });

  it('a revoked project gate does not run, and a strict one fails closed', async () => {
    const file = out('revoked');
    const r = runtime([hookDef('tool_call_before', `touch ${file}`, { name: 'proj', source: 'project', continueOnError: false })], {
      isRevoked: (h) => (h.source === 'project' ? 'project hook approval was revoked; hook not started' : null),
    });
    const d = await r.toolCallBefore(call);
    expect(existsSync(file)).toBe(false);
    expect(d.decision).toBe('deny');
    expect(d.message).toContain('proj: hook approval was revoked');
  });

  it('appends the decision record to the opt-in decision log', async () => {
    const path = out('decisions.jsonl');
    const r = runtime([hookDef('tool_call_before', `echo '{"decision":"ask"}'`, { name: 'asker' })], { decisionLog: new JsonlLog(path), hookSetDigest: 'abc123' });
    await r.toolCallBefore(call);
    const line = JSON.parse(readFileSync(path, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ session_id: r.sessionId, schema_version: 1, decision: 'ask', tool: 'bash', hook_set_digest: 'abc123', hooks: [{ label: 'asker', outcome: 'ask', exit_code: 0 }] });
    expect(line.ts).toMatch(/\+00:00$/);
  });
});

describe('HookRuntime: message_submit', () => {
  it('chains hooks in config order through the bounded stdin document', async () => {
    const r = runtime([hookDef('message_submit', appendWord('first')), hookDef('message_submit', appendWord('second'))]);
    const res = await r.messageSubmit('hello', { mode: 'work', model: 'm' });
    expect(res).toMatchObject({ kind: 'replaced', text: 'hello first second' });
  });

  it('passes the document with UI metadata and the current text in DEEPSEEK_MESSAGE', async () => {
    const file = out('ms');
    const r = runtime([hookDef('message_submit', `cat > ${file}; echo "$DEEPSEEK_MESSAGE|$DEEPSEEK_MODE|$DEEPSEEK_TOTAL_TOKENS" >> ${file}`)]);
    await r.messageSubmit('hi there', { mode: 'agent', model: 'deepseek-chat', totalTokens: 12 });
    const [doc, envLine] = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(doc!)).toEqual({
      event: 'message_submit',
      text: 'hi there',
      text_bytes: 8,
      text_original_bytes: 8,
      text_truncated: false,
      session_id: r.sessionId,
      workspace: dir,
      mode: 'ACT',
      model: 'deepseek-chat',
      total_tokens: 12,
    });
    expect(envLine).toBe('hi there|ACT|12');
  });

  it('blocks on exit 2 with a redacted reason, never copying unstructured output', async () => {
    const r = runtime([hookDef('message_submit', `echo '{"reason":"blocked /Users/alice/private --run token=SUPERSECRET"}'; echo stderr-secret /tmp/private >&2; exit 2`)]);
    expect(await r.messageSubmit('x')).toMatchObject({ kind: 'blocked', reason: 'blocked [path] [argument] [secret]' });
  });

  it('warns and continues on a lenient failure; blocks on a strict one', async () => {
    const lenient = runtime([hookDef('message_submit', 'exit 9'), hookDef('message_submit', `echo '{"text":"after"}'`)]);
    expect(await lenient.messageSubmit('x')).toMatchObject({ kind: 'replaced', text: 'after', warning: 'message_submit hook exited with code 9' });
    const strict = runtime([hookDef('message_submit', 'exit 7', { continueOnError: false })]);
    expect(await strict.messageSubmit('x')).toMatchObject({ kind: 'blocked', reason: 'message_submit hook failed and blocked submission' });
  });
});

describe('HookRuntime: shell_env', () => {
  it('merges KEY=VALUE output with later hooks winning; a failing hook contributes nothing', async () => {
    const audit = out('audit.log');
    const r = runtime(
      [
        hookDef('shell_env', `echo SHARED=first; echo ONLY_FIRST=1`, { name: 'one' }),
        hookDef('shell_env', `echo SHARED=second; echo 'export TOKEN="s3cr3t value"'`, { name: 'two' }),
        hookDef('shell_env', `echo LEAKED=yes; exit 1`, { name: 'broken' }),
      ],
      { auditLog: new JsonlLog(audit) },
    );
    const res = await r.shellEnv({ name: 'bash', input: { command: 'deploy' } });
    expect(Object.fromEntries(res.vars)).toEqual({ SHARED: 'second', ONLY_FIRST: '1', TOKEN: 's3cr3t value' });
    const log = readFileSync(audit, 'utf8');
    const records = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; details: { hook: string; tool: string; keys: string[] } });
    expect(records.map((x) => [x.event, x.details.hook, x.details.keys])).toEqual([
      ['shell_env_hook', 'one', ['ONLY_FIRST', 'SHARED']],
      ['shell_env_hook', 'two', ['SHARED', 'TOKEN']],
    ]);
    expect(log).not.toContain('s3cr3t');
    expect(log).not.toContain('first');
    expect(JSON.stringify(res.hooks)).not.toContain('s3cr3t');
  });

  it('has the audit record on disk when the call goes on (written off the event loop, but awaited)', async () => {
    const audit = out('audit-last.log');
    const r = runtime([hookDef('shell_env', `echo LAST_HOOK_KEY=v`, { name: 'last' })], { auditLog: new JsonlLog(audit) });
    await r.shellEnv({ name: 'bash', input: { command: 'deploy' } });
    expect(readFileSync(audit, 'utf8')).toContain('"keys":["LAST_HOOK_KEY"]');
  });

  it('runs with the narrow context only: tool name and args, no session, mode or workspace', async () => {
    const file = out('narrow');
    const r = runtime([hookDef('shell_env', `env | grep -E '^(DEEPSEEK|CODEWHALE)_' | sort > ${file}`)]);
    await r.shellEnv({ name: 'exec_shell', input: { command: 'ls' } });
    expect(readFileSync(file, 'utf8')).toBe('DEEPSEEK_TOOL_ARGS={"command":"ls"}\nDEEPSEEK_TOOL_NAME=exec_shell\n');
  });

  it('ignores background and still collects stdout; a NUL-printing hook never breaks the call', async () => {
    const r = runtime([hookDef('shell_env', 'echo BG=collected', { background: true }), hookDef('shell_env', `printf 'BAD=to\\0ken\\nGOOD=1\\n'`)]);
    const res = await r.shellEnv({ name: 'bash', input: {} });
    expect(Object.fromEntries(res.vars)).toEqual({ BG: 'collected', GOOD: '1' });
  });
});

describe('HookRuntime: observers', () => {
  it('never makes the caller wait on a hook process', async () => {
    const file = out('slow-observer');
    const r = runtime([hookDef('turn_end', `sleep 0.5; cat > ${file}`)]);
    const started = performance.now();
    expect(r.fire('turn_end', {}, '{"event":"turn_end"}')).toEqual({ ok: true });
    // The hook sleeps 0.5 s: a caller that waited for it would take longer than this.
    expect(performance.now() - started).toBeLessThan(400);
    await r.idle();
    expect(readFileSync(file, 'utf8')).toBe('{"event":"turn_end"}\n');
  });

  it('drops an event with the exact event-specific message when the queue is full', async () => {
    const dispatcher = new ObserverDispatcher({ capacity: 1, workers: 1 });
    const r = runtime([hookDef('subagent_spawn', 'sleep 0.3')], { observerDispatcher: dispatcher });
    expect(r.fire('subagent_spawn', {}, '{}').ok).toBe(true);
    await new Promise((res) => setTimeout(res, 50));
    expect(r.fire('subagent_spawn', {}, '{}').ok).toBe(true);
    expect(r.fire('subagent_spawn', {}, '{}')).toEqual({ ok: false, error: 'subagent_spawn observer hook queue is full; event was not submitted' });
    await dispatcher.idle();
    await dispatcher.close();
    expect(r.fire('subagent_spawn', {}, '{}')).toEqual({ ok: false, error: 'subagent_spawn observer hook dispatcher is unavailable; event was not submitted' });
  });

  it("gives an event its own name and session id, whatever the caller's context carries", async () => {
    const file = out('own-ids');
    const r = runtime([hookDef('turn_end', `echo "$DEEPSEEK_SESSION_ID $DEEPSEEK_WORKSPACE" > ${file}`)]);
    // A JavaScript caller can pass fields the type leaves out; the runtime's own win.
    r.fire('turn_end', { event: 'session_start', sessionId: 'sess_forged', workspace: null } as never, '{}');
    await r.idle();
    expect(readFileSync(file, 'utf8')).toBe(`${r.sessionId} ${dir}\n`);
  });

  it('refuses an event the queue cannot take before building its environment, and still says ok when no hook matches', async () => {
    let reads = 0;
    // Each event whose jobs are built lists the parent environment once (a proxy, so never cached).
    const parentEnv = new Proxy({ PATH: process.env.PATH, HOME: dir } as Record<string, string | undefined>, {
      ownKeys(target) {
        reads++;
        return Reflect.ownKeys(target);
      },
    });
    const dispatcher = new ObserverDispatcher({ capacity: 2, workers: 1 });
    const r = runtime([hookDef('subagent_spawn', 'sleep 0.3', { condition: { type: 'mode', mode: 'plan' } })], { observerDispatcher: dispatcher, parentEnv });
    expect(r.fire('subagent_spawn', { mode: 'plan' }, '{}').ok).toBe(true);
    await new Promise((res) => setTimeout(res, 50)); // the worker has taken it: two slots free
    for (let i = 0; i < 2; i++) expect(r.fire('subagent_spawn', { mode: 'plan' }, '{}').ok).toBe(true);
    expect(reads).toBe(3);
    for (let i = 0; i < 5; i++) expect(r.fire('subagent_spawn', { mode: 'plan' }, '{}')).toEqual({ ok: false, error: 'subagent_spawn observer hook queue is full; event was not submitted' });
    expect(reads).toBe(3);
    // No matching hook: nothing to queue, so nothing is refused.
    expect(r.fire('subagent_spawn', { mode: 'work' }, '{}')).toEqual({ ok: true });
    await dispatcher.idle();
    await dispatcher.close();
  });

  it('structured observers run every hook even after a strict failure; execute-path events stop', async () => {
    const a = out('structured');
    const b = out('execute');
    const r = runtime([
      hookDef('turn_end', 'exit 1', { continueOnError: false }),
      hookDef('turn_end', `touch ${a}`),
      hookDef('mode_change', 'exit 1', { continueOnError: false }),
      hookDef('mode_change', `touch ${b}`),
    ]);
    r.fire('turn_end', {}, '{}');
    r.fire('mode_change', { mode: 'plan', previousMode: 'work' });
    await r.idle();
    expect(existsSync(a)).toBe(true);
    expect(existsSync(b)).toBe(false);
  });

  it('gates of one call see the same environment, and the next call sees the parent environment as it is then', async () => {
    const file = out('gate-env');
    const parentEnv: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: dir, STAMP: 'one' };
    const gate = (name: string) => hookDef('tool_call_before', `echo "${name} $STAMP $DEEPSEEK_TOOL_CALL_ID" >> ${file}`, { name });
    const r = runtime([gate('g1'), gate('g2')], { parentEnv });
    await r.toolCallBefore({ name: 'bash', callId: 'c1', input: { command: 'true' } });
    parentEnv['STAMP'] = 'two';
    await r.toolCallBefore({ name: 'bash', callId: 'c2', input: { command: 'true' } });
    expect(readFileSync(file, 'utf8')).toBe('g1 one c1\ng2 one c1\ng1 two c2\ng2 two c2\n');
  });

  it('filters a frozen parent environment once, with the same result for every event', async () => {
    const file = out('frozen-env');
    const parentEnv = Object.freeze({ PATH: process.env.PATH, HOME: dir, STAMP: 'kept', DEEPSEEK_TOOL_EXIT_CODE: '99', DEEPSEEK_TOOL_EXECUTION_RECEIPT: '{"stale":true}' });
    const r = runtime([hookDef('tool_call_after', `echo "$DEEPSEEK_TOOL_CALL_ID $STAMP \${DEEPSEEK_TOOL_EXIT_CODE:-none} \${DEEPSEEK_TOOL_EXECUTION_RECEIPT:-none}" >> ${file}`)], { parentEnv });
    for (const callId of ['c1', 'c2', 'c3']) {
      r.fire('tool_call_after', { mode: 'work', tool: { name: 'read', callId, result: 'ok', success: true } });
      await r.idle();
    }
    // Every event (the first fills the cache, the others read it) drops the stale tool variables.
    expect(readFileSync(file, 'utf8')).toBe('c1 kept none none\nc2 kept none none\nc3 kept none none\n');
  });

  it("gives a frozen parent's variables and the event's to every hook, on every path: a chain, a single run, in the background", async () => {
    const parentEnv = Object.freeze({ PATH: process.env.PATH, HOME: dir, STAMP: 'kept' });
    const show = (file: string) => `printf '%s %s|' "$STAMP" "$DEEPSEEK_MODEL" >> ${file}`;
    for (const mode of SPAWNERS) {
      useSpawner(mode);
      try {
        const file = out(`all-paths-${mode}`);
        const r = runtime(
          [
            hookDef('tool_call_before', show(file), { name: 'gate' }),
            hookDef('message_submit', `${show(file)}; printf '{"text":"t"}'`, { name: 'rewrite' }),
            hookDef('turn_end', show(file), { name: 'observer' }),
            hookDef('session_end', show(file), { name: 'background', background: true }),
          ],
          { parentEnv },
        );
        await r.toolCallBefore({ name: 'bash', callId: 'c1', input: { command: 'true' }, model: 'm1' });
        await r.messageSubmit('hi', { model: 'm2' });
        r.fire('turn_end', { model: 'm3' }, '{}');
        await r.idle();
        r.fire('session_end', { model: 'm4' }, '{}');
        await r.idle();
        await until(() => existsSync(file) && readFileSync(file, 'utf8').split('|').length === 5);
        expect(readFileSync(file, 'utf8'), mode).toBe('kept m1|kept m2|kept m3|kept m4|');
      } finally {
        useSpawner(null);
      }
    }
  });

  it('passes an inherited variable named __proto__ on like any other, from a plain or a frozen parent', async () => {
    for (const freeze of [false, true]) {
      const file = out('proto-var');
      // An own property named `__proto__`, as `{ ...process.env }` makes for that variable.
      const parent: Record<string, string> = { PATH: process.env.PATH!, HOME: dir };
      Object.defineProperty(parent, '__proto__', { value: 'kept', enumerable: true, writable: true, configurable: true });
      const r = runtime([hookDef('turn_end', `printf '%s' "$__proto__" > ${file}`)], { parentEnv: freeze ? Object.freeze(parent) : parent });
      for (let i = 0; i < 2; i++) r.fire('turn_end', {}, '{}');
      await r.idle();
      expect(readFileSync(file, 'utf8'), freeze ? 'frozen' : 'plain').toBe('kept');
    }
  });

  it("never mixes two sessions' frozen environments", async () => {
    const file = out('two-parents');
    const parent = (who: string) => Object.freeze({ PATH: process.env.PATH, HOME: dir, WHO: who });
    const gate = hookDef('tool_call_before', `echo "$WHO $DEEPSEEK_TOOL_CALL_ID" >> ${file}`);
    const a = runtime([gate], { parentEnv: parent('alice') });
    const b = runtime([gate], { parentEnv: parent('bob') });
    for (let i = 0; i < 3; i++) {
      await a.toolCallBefore({ name: 'bash', callId: `a${i}`, input: { command: 'true' } });
      await b.toolCallBefore({ name: 'bash', callId: `b${i}`, input: { command: 'true' } });
    }
    expect(readFileSync(file, 'utf8')).toBe('alice a0\nbob b0\nalice a1\nbob b1\nalice a2\nbob b2\n');
  });

  it("makes the decision record's input preview while the gate runs, not after its result", async () => {
    const marker = out('gate-started');
    let reads = 0;
    // The preview reads the input (its getter) once more after the environment did, before spawn.
    const input = {
      get command() {
        reads++;
        return 'deploy --token ghp_0123456789abcdefABCDEF0123456789abcd';
      },
    };
    const r = runtime([hookDef('tool_call_before', `touch ${marker}; sleep 0.6`)]);
    let settled = false;
    const pending = r.toolCallBefore({ name: 'bash', callId: 'c1', input }).then((rec) => {
      settled = true;
      return rec;
    });
    while (!existsSync(marker)) await new Promise((res) => setTimeout(res, 10));
    await new Promise((res) => setTimeout(res, 150));
    expect(settled).toBe(false);
    expect(reads).toBe(2);
    const record = await pending;
    expect(reads).toBe(2);
    expect(record.input.original).not.toContain('ghp_');
    expect(record.input.original).toContain('[secret]');
  });

  it('gives tool_call_after the settled tool context and removes an inherited receipt', async () => {
    const file = out('after');
    const r = runtime([hookDef('tool_call_after', `env | grep -E '^DEEPSEEK_TOOL' | sort > ${file}`)], {
      parentEnv: { PATH: process.env.PATH, DEEPSEEK_TOOL_EXECUTION_RECEIPT: '{"stale":true}', DEEPSEEK_TOOL_EXIT_CODE: '99' },
    });
    r.fire('tool_call_after', { mode: 'work', tool: { name: 'read', callId: 'c1', result: 'ok', success: true } });
    await r.idle();
    expect(readFileSync(file, 'utf8')).toBe('DEEPSEEK_TOOL_CALL_ID=c1\nDEEPSEEK_TOOL_NAME=read\nDEEPSEEK_TOOL_RESULT=ok\nDEEPSEEK_TOOL_SUCCESS=true\n');
  });

  it('skips a tool-scoped on_error hook when the error has no tool behind it', async () => {
    const file = out('onerr');
    const r = runtime([hookDef('on_error', `echo "$DEEPSEEK_TOOL_EXIT_CODE" > ${file}`, { condition: { type: 'exit_code', code: 3221225477n } })]);
    r.fire('on_error', { error: 'network down' });
    await r.idle();
    expect(existsSync(file)).toBe(false);
    r.fire('on_error', { error: 'tool `bash` failed: boom', tool: { name: 'bash', exitCode: 3221225477, success: false, result: 'boom' } });
    await r.idle();
    expect(readFileSync(file, 'utf8')).toBe('3221225477\n');
  });

  it('runs session_start synchronously with stdin at EOF', async () => {
    const file = out('start');
    writeFileSync(file, '');
    const r = runtime([hookDef('session_start', `wc -c | tr -d ' ' > ${file}`)]);
    const outcomes = await r.runNow('session_start', { mode: 'work' });
    expect(outcomes).toHaveLength(1);
    expect(readFileSync(file, 'utf8').trim()).toBe('0');
  });
});

describe('HookRuntime: a strict gate that answered does not stop later gates', () => {
  it('runs a later deny gate after a strict hook that exited 1 with a valid allow', async () => {
    const r = runtime([
      hookDef('tool_call_before', `echo '{"decision":"allow"}'; exit 1`, { name: 'strict-allow', continueOnError: false }),
      hookDef('tool_call_before', `echo '{"decision":"deny","reason":"second gate says no"}'`, { name: 'deny-gate' }),
    ]);
    const d = await r.toolCallBefore({ name: 'bash', callId: 'c', input: { command: 'ls' }, mode: 'work', model: 'm' });
    expect(d.hooks.map((h) => [h.label, h.outcome])).toEqual([
      ['strict-allow', 'allow'],
      ['deny-gate', 'deny'],
    ]);
    expect(d.decision).toBe('deny');
    expect(d.message).toBe("ToolCallBefore hook denied tool 'bash': second gate says no");
  });
});
