import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, presentedToken, tokensMatch } from './check-token.js';
import { resolveToken, tokenFilePath } from './resolve-token.js';

const dirs: string[] = [];
const home = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'cw-auth-'));
  dirs.push(d);
  return join(d, 'home');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('resolveToken', () => {
  it('prefers the flag, then CODEWHALE_RUNTIME_TOKEN, then DEEPSEEK_RUNTIME_TOKEN', () => {
    const h = home();
    const env = { CODEWHALE_RUNTIME_TOKEN: 'cw-env', DEEPSEEK_RUNTIME_TOKEN: 'ds-env' };
    expect(resolveToken({ flag: 'from-flag', env, home: h })).toEqual({ token: 'from-flag', source: 'flag', file: null });
    expect(resolveToken({ env, home: h })).toMatchObject({ token: 'cw-env', source: 'CODEWHALE_RUNTIME_TOKEN' });
    expect(resolveToken({ env: { DEEPSEEK_RUNTIME_TOKEN: 'ds-env' }, home: h })).toMatchObject({ token: 'ds-env', source: 'DEEPSEEK_RUNTIME_TOKEN' });
  });

  it('generates a token into a 0600 file and reuses it next time', () => {
    const h = home();
    const first = resolveToken({ env: {}, home: h });
    expect(first.source).toBe('generated');
    expect(first.token).toMatch(/^cwrt_[0-9a-f]{64}$/);
    expect(first.file).toBe(tokenFilePath(h));
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file!, 'utf8').trim()).toBe(first.token);
    expect(resolveToken({ env: {}, home: h })).toEqual({ token: first.token, source: 'file', file: first.file });
  });

  it('tightens a token file others can read', () => {
    const h = home();
    const { file } = resolveToken({ env: {}, home: h });
    writeFileSync(file!, 'cwrt_x\n');
    chmodSync(file!, 0o644);
    expect(resolveToken({ env: {}, home: h }).token).toBe('cwrt_x');
    expect(statSync(file!).mode & 0o777).toBe(0o600);
  });
});

describe('presentedToken', () => {
  it('reads Bearer, the two headers and the cookie, never the query string', () => {
    expect(presentedToken(new Headers({ authorization: 'Bearer abc' }))).toBe('abc');
    expect(presentedToken(new Headers({ authorization: 'Basic abc' }))).toBeNull();
    expect(presentedToken(new Headers({ 'x-codewhale-runtime-token': 'def' }))).toBe('def');
    expect(presentedToken(new Headers({ 'x-deepseek-runtime-token': 'ghi' }))).toBe('ghi');
    expect(presentedToken(new Headers({ cookie: 'a=1; codewhale_runtime_token=jkl; b=2' }))).toBe('jkl');
    expect(presentedToken(new Headers({}))).toBeNull();
  });
});

describe('isLoopbackHost', () => {
  it('accepts loopback names only', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', 'example.com', '128.0.0.1']) expect(isLoopbackHost(h)).toBe(false);
  });
});

describe('properties', () => {
  it('tokensMatch is equality', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(tokensMatch(a, b)).toBe(a === b);
        expect(tokensMatch(a, a)).toBe(true);
        expect(tokensMatch(null, a)).toBe(false);
      }),
    );
  });
});
