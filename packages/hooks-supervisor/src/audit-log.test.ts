import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlLog, shellEnvAuditRecord } from './audit-log.js';

const dir = () => mkdtempSync(join(tmpdir(), 'cw-audit-'));

describe('JsonlLog', () => {
  it('appends one JSON object per line, creating the directory', () => {
    const path = join(dir(), 'nested', 'audit.log');
    const log = new JsonlLog(path);
    expect(log.append({ a: 1 })).toBe(true);
    expect(log.append({ b: 'two' })).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":"two"}\n');
  });

  it('leaves a small log alone and a missing log is not an error', () => {
    const path = join(dir(), 'audit.log');
    const log = new JsonlLog(path, { rotateBytes: 1024 });
    log.append({ n: 1 });
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it('rolls an oversized log to one previous generation, and rolling twice keeps exactly one', () => {
    const path = join(dir(), 'audit.log');
    const log = new JsonlLog(path, { rotateBytes: 64 });
    writeFileSync(path, `${'x'.repeat(70)}\n`);
    log.append({ gen: 2 });
    expect(readFileSync(`${path}.1`, 'utf8')).toBe(`${'x'.repeat(70)}\n`);
    expect(readFileSync(path, 'utf8')).toBe('{"gen":2}\n');
    writeFileSync(path, `${'y'.repeat(70)}\n`);
    log.append({ gen: 3 });
    expect(readFileSync(`${path}.1`, 'utf8')).toBe(`${'y'.repeat(70)}\n`);
    expect(readFileSync(path, 'utf8')).toBe('{"gen":3}\n');
  });

  it('is best-effort: a write that fails is reported, never thrown', () => {
    const d = dir();
    const locked = join(d, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    const errors: unknown[] = [];
    // A directory where the file should be: the open fails whoever we run as.
    const log = new JsonlLog(join(d, 'locked'), { onError: (e) => errors.push(e) });
    expect(log.append({ x: 1 })).toBe(false);
    expect(errors).toHaveLength(1);
  });
});

describe('shellEnvAuditRecord', () => {
  it('carries key names only, sorted, with an RFC 3339 +00:00 timestamp', () => {
    const r = shellEnvAuditRecord('creds', 'exec_shell', ['ZED', 'ALPHA'], new Date(Date.UTC(2026, 10, 30, 3, 0, 0)));
    expect(r).toEqual({ ts: '2026-11-30T03:00:00+00:00', event: 'shell_env_hook', details: { hook: 'creds', tool: 'exec_shell', keys: ['ALPHA', 'ZED'] } });
  });
});
