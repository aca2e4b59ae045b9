import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonlLog, shellEnvAuditRecord } from './audit-log.js';

const dir = () => mkdtempSync(join(tmpdir(), 'cw-audit-'));

describe('JsonlLog', () => {
  it('appends one JSON object per line, creating the directory', async () => {
    const path = join(dir(), 'nested', 'audit.log');
    const log = new JsonlLog(path);
    expect(await log.write({ a: 1 })).toBe(true);
    expect(await log.write({ b: 'two' })).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":"two"}\n');
  });

  it('leaves a small log alone and a missing log is not an error', async () => {
    const path = join(dir(), 'audit.log');
    const log = new JsonlLog(path, { rotateBytes: 1024 });
    expect(await log.write({ n: 1 })).toBe(true);
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it('rolls an oversized log to one previous generation, and rolling twice keeps exactly one', async () => {
    const path = join(dir(), 'audit.log');
    const log = new JsonlLog(path, { rotateBytes: 64 });
    writeFileSync(path, `${'x'.repeat(70)}\n`);
    await log.write({ gen: 2 });
    expect(readFileSync(`${path}.1`, 'utf8')).toBe(`${'x'.repeat(70)}\n`);
    expect(readFileSync(path, 'utf8')).toBe('{"gen":2}\n');
    writeFileSync(path, `${'y'.repeat(70)}\n`);
    await log.write({ gen: 3 });
    expect(readFileSync(`${path}.1`, 'utf8')).toBe(`${'y'.repeat(70)}\n`);
    expect(readFileSync(path, 'utf8')).toBe('{"gen":3}\n');
  });

  it('creates the file owner-only', async () => {
    const path = join(dir(), 'audit.log');
    await new JsonlLog(path).write({ x: 1 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('JsonlLog.write', () => {
  const files = (path: string) => [existsSync(`${path}.1`) ? readFileSync(`${path}.1`, 'utf8') : null, existsSync(path) ? readFileSync(path, 'utf8') : null];

  it("writes nothing on the caller's turn, then every record in call order", async () => {
    const path = join(dir(), 'nested', 'audit.log');
    const log = new JsonlLog(path);
    const writes = Array.from({ length: 200 }, (_, i) => log.write({ i }));
    expect(existsSync(path)).toBe(false);
    expect(await Promise.all(writes)).toEqual(writes.map(() => true));
    expect(readFileSync(path, 'utf8')).toBe(Array.from({ length: 200 }, (_, i) => `{"i":${i}}\n`).join(''));
  });

  it('logs a record as it was when write was called', async () => {
    const path = join(dir(), 'audit.log');
    const log = new JsonlLog(path);
    const record: Record<string, unknown> = { state: 'before' };
    const done = log.write(record);
    record.state = 'after';
    await done;
    expect(readFileSync(path, 'utf8')).toBe('{"state":"before"}\n');
  });

  it('is best-effort: a failed write resolves false, is reported, and the writes queued after it still happen', async () => {
    const d = dir();
    // A directory where the file should be: the open fails whoever we run as.
    const path = join(d, 'audit.log');
    mkdirSync(path);
    const errors: unknown[] = [];
    // On the failure, the obstacle goes: the write queued behind the failed one can succeed.
    const log = new JsonlLog(path, { onError: (e) => (errors.push(e), rmdirSync(path)) });
    const failing = log.write({ n: 1 });
    const next = log.write({ n: 2 });
    await expect(failing).resolves.toBe(false);
    expect(errors).toHaveLength(1);
    await expect(next).resolves.toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"n":2}\n');
  });

  it('leaves the files the rotation rule says, for any records, rotation size and existing file', async () => {
    // The rule: before a record, a file of at least rotateBytes becomes `.1` (replacing it).
    const model = (existing: string | undefined, lines: string[], rotateBytes: number) => {
      let current = existing ?? null;
      let previous: string | null = null;
      for (const line of lines) {
        if (current !== null && Buffer.byteLength(current) >= rotateBytes) [previous, current] = [current, null];
        current = (current ?? '') + line;
      }
      return [previous, current];
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 200 }),
        fc.option(fc.string({ maxLength: 120 }), { nil: undefined }),
        async (texts, rotateBytes, existing) => {
          const path = join(dir(), 'audit.log');
          if (existing !== undefined) writeFileSync(path, existing);
          const log = new JsonlLog(path, { rotateBytes });
          await Promise.all(texts.map((t) => log.write({ t })));
          expect(files(path)).toEqual(
            model(
              existing,
              texts.map((t) => `${JSON.stringify({ t })}\n`),
              rotateBytes,
            ),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('flushed() waits for every queued record', async () => {
    const path = join(dir(), 'audit.log');
    const log = new JsonlLog(path);
    for (let i = 0; i < 20; i++) void log.write({ i });
    await log.flushed();
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(21);
  });
});

describe('shellEnvAuditRecord', () => {
  it('carries key names only, sorted, with an RFC 3339 +00:00 timestamp', () => {
    const r = shellEnvAuditRecord('creds', 'exec_shell', ['ZED', 'ALPHA'], new Date(Date.UTC(2026, 10, 30, 3, 0, 0)));
    expect(r).toEqual({ ts: '2026-11-30T03:00:00+00:00', event: 'shell_env_hook', details: { hook: 'creds', tool: 'exec_shell', keys: ['ALPHA', 'ZED'] } });
  });
});
