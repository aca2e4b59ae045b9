import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { foldToolCallBefore, type HookOutcome } from '@codewhale/hooks-payloads';
import type { HookDefinition } from '@codewhale/hooks-config';
import { JsonlLog } from './audit-log.js';
import { HookRuntime, type HookRuntimeOptions } from './hook-runtime.js';
import { HookChain, type RunSpec } from './run-hook.js';
import { overflowProcessHost, setSpawnMode, sharedProcessHost } from './process-host.js';
import { liveProcessGroups } from './process-group.js';
import { ShellContinuation, type ShellRunSpec } from './shell-run.js';
import { baseEnv, hookDef, hookSet, identity, procTable, until } from '../test/helpers.js';

// A shell command staged behind its gates (ShellContinuation): the host starts it the moment
// the chain ends, only when every gate exited 0, printed nothing and drained. Everything else
// must leave it unstarted, and the command must then never have run at all.

const dir = mkdtempSync(join(tmpdir(), 'cw-then-'));
let n = 0;
const out = (name: string) => join(dir, `${++n}-${name}`);
const runtimes: HookRuntime[] = [];
const alive = (pid: number) => procTable().some((p) => p.pid === pid && p.state !== 'Z' && p.state !== 'X');
const settle = () => new Promise((res) => setTimeout(res, 150));
/** The staged command (`touch marker`) did not run, not even late. */
async function expectNeverRan(marker: string): Promise<void> {
  await settle();
  expect(existsSync(marker)).toBe(false);
}

function command(script: string, signal = new AbortController().signal, over: Partial<ShellRunSpec> = {}): ShellContinuation {
  return new ShellContinuation({ script, cwd: dir, env: baseEnv(), timeoutSecs: 30, combined: false, signal, headBytes: 4096, tailBytes: 4096, killGraceMs: 200, drainMs: 500, ...over });
}

const gateSpec = (label: string, cmd: string, over: Partial<RunSpec> = {}): RunSpec => ({
  hook: identity(label, { continueOnError: true }),
  command: cmd,
  cwd: dir,
  env: baseEnv(),
  stdin: '{}',
  timeoutSecs: 30,
  ...over,
});

/** Run a chain of gates to its end with `then` offered; every outcome, in order. */
async function runChain(chain: HookChain): Promise<HookOutcome[]> {
  const outcomes: HookOutcome[] = [];
  for (let o = await chain.next(); o !== null; o = await chain.next()) outcomes.push(o);
  return outcomes;
}

function runtime(hooks: HookDefinition[], over: Partial<HookRuntimeOptions> = {}): HookRuntime {
  const r = new HookRuntime({ hooks: hookSet(hooks), workspace: dir, parentEnv: { PATH: process.env.PATH, HOME: dir }, ...over });
  runtimes.push(r);
  return r;
}

beforeAll(async () => {
  setSpawnMode('host');
  await sharedProcessHost().start();
});
afterEach(async () => {
  for (const r of runtimes.splice(0)) {
    await r.idle();
    await r.close();
  }
});
afterAll(() => setSpawnMode(null));

describe('a shell command staged behind its gates', () => {
  it('starts when every gate allowed cleanly, after the last gate ended, and reports as a shell run', async () => {
    const log = out('order');
    const then = command(`echo cmd >> ${log}; echo out; echo err >&2; exit 3`);
    const chain = new HookChain([gateSpec('g1', `echo g1 >> ${log}`), gateSpec('g2', `sleep 0.1; echo g2 >> ${log} 2>/dev/null; echo noise >&2`)], { then });
    // g1 and g2 write to the log file, not to stdout; g2's stderr does not count.
    const outcomes = await runChain(chain);
    expect(outcomes.map((o) => o.success)).toEqual([true, true]);
    expect(then.sent).toBe(true);
    expect(await then.result()).toEqual({ kind: 'ran', exitCode: 3, status: 'failed', stdout: 'out\n', stderr: 'err\n', stdoutTruncated: false, stderrTruncated: false });
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['g1', 'g2', 'cmd']);
  });

  const unclean: [string, string][] = [
    ['exits 1', 'exit 1'],
    ['exits 2 (a deny)', 'exit 2'],
    ['prints a verdict', `echo '{"decision":"allow"}'`],
    ['prints one space', `printf ' '`],
    ['prints a rewrite', `echo '{"updatedInput":{"command":"true"}}'`],
    ['is killed by a signal', 'kill -9 $$'],
    ['is not found', 'no-such-command-cw'],
  ];
  for (const [what, gateCommand] of unclean) {
    it(`never starts when a gate ${what}`, async () => {
      const marker = out('ran');
      const then = command(`touch ${marker}`);
      const chain = new HookChain([gateSpec('ok', 'true'), gateSpec('bad', gateCommand)], { then });
      await runChain(chain);
      expect(then.sent).toBe(true);
      expect(await then.result()).toBeNull();
      await expectNeverRan(marker);
    });
  }

  it('never starts when a gate times out, or when a strict failure stops the chain', async () => {
    const marker = out('ran');
    const slow = command(`touch ${marker}`);
    await runChain(new HookChain([gateSpec('slow', 'sleep 5', { timeoutMs: 200 })], { then: slow }));
    expect(await slow.result()).toBeNull();
    const stopped = command(`touch ${marker}`);
    const strict = gateSpec('strict', 'exit 1', { hook: identity('strict', { continueOnError: false }) });
    const outcomes = await runChain(new HookChain([strict, gateSpec('later', 'true')], { then: stopped, stopAfter: () => true }));
    expect(outcomes).toHaveLength(1);
    expect(await stopped.result()).toBeNull();
    await expectNeverRan(marker);
  });

  it('never starts once abandoned or cancelled while the gates run', async () => {
    const marker = out('ran');
    const abandoned = command(`touch ${marker}`);
    const a = new HookChain([gateSpec('g', 'sleep 0.2')], { then: abandoned });
    const first = a.next();
    abandoned.abandon();
    await first;
    expect(await abandoned.result()).toBeNull();
    const ac = new AbortController();
    const cancelled = command(`touch ${marker}`, ac.signal);
    const c = new HookChain([gateSpec('g', 'sleep 0.2')], { then: cancelled });
    const second = c.next();
    ac.abort();
    expect((await second)?.success).toBe(true);
    // Cancelled: the host skipped it.
    expect(await cancelled.result()).toBeNull();
    await expectNeverRan(marker);
  });

  it('is stopped like any run when cancelled after it started', async () => {
    const pidFile = out('pid');
    const ac = new AbortController();
    const then = command(`echo $$ > ${pidFile}; exec sleep 30`, ac.signal);
    await runChain(new HookChain([gateSpec('g', 'true')], { then }));
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    ac.abort();
    expect(await then.result()).toMatchObject({ kind: 'ran', status: 'killed' });
    expect(alive(pid)).toBe(false);
  });

  it('never starts when the host dies during the gates, so the caller may start it afresh', async () => {
    const marker = out('ran');
    const pids = out('host');
    const then = command(`touch ${marker}`);
    const chain = new HookChain([gateSpec('g', `echo $PPID > ${pids}; sleep 30`)], { then });
    const first = chain.next();
    expect(await until(() => existsSync(pids) && readFileSync(pids, 'utf8').trim() !== '')).toBe(true);
    const host = Number(readFileSync(pids, 'utf8'));
    expect([sharedProcessHost().pid, overflowProcessHost().pid]).toContain(host);
    process.kill(host, 'SIGKILL');
    expect((await first)?.success).toBe(false);
    expect(await then.result()).toBeNull();
    await expectNeverRan(marker);
    await sharedProcessHost().start();
  });

  it('reports host_lost, and is not run again, when the host dies after the gates allowed it', async () => {
    const pidFile = out('pid');
    const then = command(`echo $PPID $$ > ${pidFile}; exec sleep 30`);
    await runChain(new HookChain([gateSpec('g', 'true')], { then }));
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim().split(' ').length === 2)).toBe(true);
    const [host, pid] = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    process.kill(host!, 'SIGKILL');
    expect(await then.result()).toEqual({ kind: 'host_lost' });
    expect(await until(() => !alive(pid!))).toBe(true);
    expect(liveProcessGroups()).not.toContain(pid);
    await sharedProcessHost().start();
  });

  it('is not sent when the chain is not one request (a hook with a revocation check), nor in process', async () => {
    const checked = command('true');
    await runChain(new HookChain([gateSpec('g', 'true'), gateSpec('revocable', 'true', { authorize: () => null })], { then: checked }));
    expect(checked.sent).toBe(false);
    expect(await checked.result()).toBeNull();
    setSpawnMode('in-process');
    try {
      const here = command('true');
      await runChain(new HookChain([gateSpec('g', 'true')], { then: here }));
      expect(here.sent).toBe(false);
    } finally {
      setSpawnMode('host');
    }
  });
});

describe('the host protocol for a then', () => {
  it('answers skipped, starting nothing, for a chain with no gate or a then that is not a shell run with its own environment', async () => {
    const host = sharedProcessHost();
    const marker = out('ran');
    const touch = command(`touch ${marker}`).request();
    const empty = host.chain(baseEnv(), [], [], { then: { request: touch } });
    expect(await empty.then!.done).toMatchObject({ skipped: true });
    const { env: _env, ...withoutEnv } = touch;
    const noEnv = host.chain(baseEnv(), [{ ...gateSpecRequest(), stopIfFailed: false }], [], { then: { request: { ...withoutEnv, mode: 'shell' } } });
    expect(await noEnv.then!.done).toMatchObject({ skipped: true });
    // The gate of a malformed chain does not start either.
    expect(await noEnv.replies[0]).toMatchObject({ spawnError: 'Other' });
    await expectNeverRan(marker);
  });
});

/** A bare hook request for ProcessHost.chain (a `true` gate with no stdin). */
function gateSpecRequest() {
  return { mode: 'hook' as const, file: '/bin/sh', args: ['-c', 'true'], cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], stdoutMax: 1024, stderrMax: 1024, timeoutMs: 5000, graceMs: 200, reapMs: 1000, drainMs: 500, shutdownMs: 250 };
}

describe('HookRuntime.toolCallBefore with a staged command', () => {
  const call = (then: ShellContinuation) => ({ name: 'bash', callId: 'c1', input: { command: 'x' }, then });

  it('sends it with the gates and still folds their outcomes', async () => {
    const marker = out('ran');
    const then = command(`touch ${marker}`);
    const record = await runtime([hookDef('tool_call_before', 'true', { name: 'g' })]).toolCallBefore(call(then));
    expect(record).toMatchObject({ decision: 'allow', updatedInput: null, additionalContext: null });
    expect(await then.result()).toMatchObject({ kind: 'ran', status: 'completed' });
    expect(existsSync(marker)).toBe(true);
  });

  it('does not send it when a decision log is kept (the record is durable before the call goes on)', async () => {
    const then = command('true');
    await runtime([hookDef('tool_call_before', 'true', { name: 'g' })], { decisionLog: new JsonlLog(out('decisions.jsonl')) }).toolCallBefore(call(then));
    expect(then.sent).toBe(false);
  });

  it('does not send it when a matching gate runs in the background', async () => {
    const then = command('true');
    await runtime([hookDef('tool_call_before', 'true', { name: 'g' }), hookDef('tool_call_before', 'true', { name: 'bg', background: true })]).toolCallBefore(call(then));
    expect(then.sent).toBe(false);
  });
});

describe("the host's rule is part of the fold's plain allow", () => {
  // What the host starts the command for, as the agent sees each gate's outcome: exit 0, no
  // signal, no timeout, no spawn error, drained (error null), no stdout byte. Stderr, the
  // strictness and everything else may be anything.
  it('any set of such outcomes folds to an allow with no rewrite, no context and no message', () => {
    const outcome = fc.record({
      label: fc.string({ minLength: 1, maxLength: 12 }),
      strict: fc.boolean(),
      stderr: fc.string({ maxLength: 200 }),
      stderrTruncated: fc.boolean(),
      durationMs: fc.nat(100_000),
    });
    fc.assert(
      fc.property(fc.array(outcome, { minLength: 1, maxLength: 6 }), (rows) => {
        const outcomes: HookOutcome[] = rows.map((r, i) => ({
          hook: identity(r.label, { index: i, continueOnError: !r.strict }),
          background: false,
          strict: r.strict,
          durationMs: r.durationMs,
          success: true,
          exitCode: 0,
          signal: null,
          timedOut: false,
          spawnError: null,
          error: null,
          stdout: '',
          stderr: r.stderr,
          stdoutTruncated: false,
          stderrTruncated: r.stderrTruncated,
        }));
        const record = foldToolCallBefore({ tool: 'bash', callId: 'c', originalInput: { command: 'x' }, outcomes });
        expect(record).toMatchObject({ decision: 'allow', updatedInput: null, additionalContext: null, message: null, denyKind: null });
      }),
    );
  });
});
