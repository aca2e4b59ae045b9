import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.js';
import { loadPermissionRules, permissionCheck, permissionsPathFor, rememberPermissionRule } from './permissions-file.js';

const dirs: string[] = [];
function tempHome(): string {
  const d = mkdtempSync(join(tmpdir(), 'cw-perm-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('permissions.toml on disk', () => {
  it('lives beside config.toml; a missing file is no rules', () => {
    const home = tempHome();
    const path = permissionsPathFor(join(home, 'config.toml'));
    expect(path).toBe(join(home, 'permissions.toml'));
    expect(loadPermissionRules(path)).toEqual({ ok: true, value: { file: path, rules: [], issues: [] } });
  });

  it('remembers rules (new file 0600), keeps comments, is idempotent, and the check reports the origin', async () => {
    const home = join(tempHome(), 'home');
    const path = permissionsPathFor(join(home, 'config.toml'));
    await rememberPermissionRule(path, { tool: 'bash', command: 'git status*', action: 'allow' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    writeFileSync(path, `# mine\n${readFileSync(path, 'utf8')}`);
    await rememberPermissionRule(path, { tool: '*', path: 'secrets/**', action: 'deny' });
    const text = readFileSync(path, 'utf8');
    await rememberPermissionRule(path, { tool: '*', path: 'secrets/**', action: 'deny' });
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(text.startsWith('# mine\n[[rules]]\n')).toBe(true);

    const loaded = loadPermissionRules(path);
    if (!loaded.ok) throw new Error('expected rules');
    const check = permissionCheck(loaded.value);
    expect(check({ name: 'bash', input: { command: 'git status' }, workspace: '/w' })).toEqual({ action: 'allow', origin: 'permissions.toml:2' });
    expect(check({ name: 'read_file', input: { path: 'secrets/k' }, workspace: '/w' })).toEqual({ action: 'deny', origin: 'permissions.toml:7' });
    expect(check({ name: 'read_file', input: { path: 'src/k' }, workspace: '/w' })).toBeNull();
  });

  it('follows a symlinked file instead of replacing it', async () => {
    const home = tempHome();
    const real = join(home, 'real.toml');
    writeFileSync(real, '# real\n', { mode: 0o640 });
    const path = join(home, 'permissions.toml');
    symlinkSync(real, path);
    await rememberPermissionRule(path, { tool: 'bash', action: 'ask' });
    expect(readFileSync(real, 'utf8')).toContain('[[rules]]');
    expect(statSync(real).mode & 0o777).toBe(0o640);
  });

  it('refuses an edit that is not safe, and leaves the file alone', async () => {
    const home = tempHome();
    const path = join(home, 'permissions.toml');
    writeFileSync(path, '[[rules]\n');
    const e = await rememberPermissionRule(path, { tool: 'bash', action: 'ask' }).catch((x: unknown) => x);
    expect(EngineError.isInstance(e) && e.category).toBe('config');
    expect(readFileSync(path, 'utf8')).toBe('[[rules]\n');
    expect(loadPermissionRules(path)).toMatchObject({ ok: false, issues: [{ code: 'toml_syntax', line: 1 }] });
  });

  it('a file that is not UTF-8 is never rewritten', async () => {
    const path = join(tempHome(), 'permissions.toml');
    const bytes = Buffer.from([0x23, 0x20, 0xff, 0x0a]);
    writeFileSync(path, bytes);
    const e = await rememberPermissionRule(path, { tool: 'bash', action: 'ask' }).catch((x: unknown) => x);
    expect(EngineError.isInstance(e) && e.message).toMatch(/not valid UTF-8; it was not changed/);
    expect(readFileSync(path)).toEqual(bytes);
  });

  it('a file that is not UTF-8 fails closed', () => {
    const path = join(tempHome(), 'permissions.toml');
    writeFileSync(path, Buffer.from([0x5b, 0xff, 0xfe]));
    expect(loadPermissionRules(path)).toMatchObject({ ok: false, issues: [{ code: 'invalid_utf8' }] });
  });
});
