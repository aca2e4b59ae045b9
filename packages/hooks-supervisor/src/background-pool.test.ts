import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundPool, BACKGROUND_QUEUE_FULL, BACKGROUND_UNAVAILABLE } from './background-pool.js';
import { MemoryLogger } from './logger.js';
import type { RunSpec } from './run-hook.js';
import { baseEnv, expectNoLeftovers, identity } from '../test/helpers.js';

const spawned: number[] = [];
const dir = mkdtempSync(join(tmpdir(), 'cw-bg-'));
const pools: BackgroundPool[] = [];

function pool(logger = new MemoryLogger()): BackgroundPool {
  const p = new BackgroundPool({ logger });
  pools.push(p);
  return p;
}

function spec(command: string, over: Partial<RunSpec> = {}): RunSpec {
  return { hook: identity('bg', { background: true, event: 'turn_end' }), command, cwd: dir, env: baseEnv(), stdin: null, timeoutSecs: 10, onSpawn: (pid) => spawned.push(pid), ...over };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
  await expectNoLeftovers(spawned);
  spawned.length = 0;
});

describe('BackgroundPool', () => {
  it('accepts exactly 32 submissions made at once and fails the rest as queue-full', async () => {
    const p = pool();
    const results = Array.from({ length: 50 }, () => p.submit(spec('sleep 0.05')));
    const accepted = results.filter((r) => r.success);
    const refused = results.filter((r) => !r.success);
    expect(accepted).toHaveLength(32);
    expect(refused).toHaveLength(18);
    expect(new Set(refused.map((r) => r.error))).toEqual(new Set([BACKGROUND_QUEUE_FULL]));
    // A submission result is never an observed exit.
    expect(results.every((r) => r.background && r.exitCode === null && r.stdout === '' && !r.strict)).toBe(true);
    await p.idle();
  }, 20_000);

  it('frees slots as the 2 workers take jobs', async () => {
    const p = pool();
    for (let i = 0; i < 32; i++) expect(p.submit(spec('sleep 0.3')).success).toBe(true);
    expect(p.submit(spec('true')).success).toBe(false);
    await wait(150);
    expect(p.running).toBe(2);
    expect(p.pending).toBe(30);
    expect(p.submit(spec('true')).success).toBe(true);
    expect(p.submit(spec('true')).success).toBe(true);
    expect(p.submit(spec('true')).success).toBe(false);
    await p.close({ drop: true });
  }, 20_000);

  it('fails submissions once the supervisor is gone', async () => {
    const p = pool();
    await p.close();
    const r = p.submit(spec('true'));
    expect(r).toMatchObject({ success: false, background: true, error: BACKGROUND_UNAVAILABLE });
  });

  it('gives a background hook the same stdin payload and environment, and discards its output', async () => {
    const p = pool();
    const file = join(dir, 'bg-stdin.txt');
    let settled: unknown;
    p.submit(spec(`cat > ${file}; echo "$MARK" >> ${file}; echo to-stdout`, { stdin: '{"event":"turn_end"}', env: baseEnv({ MARK: 'env-ok' }) }), (o) => (settled = o));
    await p.idle();
    expect(readFileSync(file, 'utf8')).toBe('{"event":"turn_end"}\nenv-ok\n');
    expect(settled).toMatchObject({ background: true, exitCode: 0, stdout: '', stderr: '' });
  });

  it('starts the timeout clock at spawn, not at submission', async () => {
    const p = pool();
    const file = join(dir, 'late.txt');
    p.submit(spec('sleep 0.6'));
    p.submit(spec('sleep 0.6'));
    // Queued for ~0.6 s behind two busy workers, then needs 0.3 s of its 0.5 s budget.
    p.submit(spec(`sleep 0.3; echo ran > ${file}`, { timeoutMs: 500, timeoutSecs: 1 }));
    await p.idle();
    expect(readFileSync(file, 'utf8')).toBe('ran\n');
  });

  it('re-checks revocation at dequeue: a queued hook does not start after a revoke', async () => {
    const p = pool();
    let revoked = false;
    const file = join(dir, 'revoked.txt');
    p.submit(spec('sleep 0.4'));
    p.submit(spec('sleep 0.4'));
    expect(p.submit(spec(`echo ran > ${file}`, { authorize: () => (revoked ? 'project hook approval was revoked; hook not started' : null) })).success).toBe(true);
    revoked = true;
    await p.idle();
    expect(existsSync(file)).toBe(false);
  });

  it('kills a timed-out background hook tree and logs the timeout', async () => {
    const logger = new MemoryLogger();
    const p = pool(logger);
    p.submit(spec('sleep 30 & sleep 30', { timeoutMs: 200, timeoutSecs: 1, killGraceMs: 100 }));
    await p.idle();
    expect(logger.records.map((r) => r.message)).toContain('background hook timed out; process tree killed');
  });
});
