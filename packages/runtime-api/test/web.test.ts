/**
 * The web client as the server serves it (its files, with a CSP and no other file reachable)
 * and the browser login: the token or a one-time code buys an HttpOnly, SameSite=Strict cookie.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LoginCodes } from '../src/auth/login-codes.js';
import { loadWebAssets } from '../src/web/web-assets.js';
import { rig, TOKEN } from './support.js';

const root = mkdtempSync(join(tmpdir(), 'cw-web-'));
mkdirSync(join(root, 'web', 'assets'), { recursive: true });
writeFileSync(join(root, 'web', 'index.html'), '<!doctype html><title>Codewhale</title><script type="module" src="/assets/app-1234.js"></script>');
writeFileSync(join(root, 'web', 'assets', 'app-1234.js'), 'console.log(1)');
writeFileSync(join(root, 'secret.txt'), 'not served');
const web = loadWebAssets(join(root, 'web'));
const codes = new LoginCodes();
const r = rig({ deps: { web, loginCodes: codes } });
afterAll(async () => {
  await r.close();
  rmSync(root, { recursive: true, force: true });
});

const json = { 'content-type': 'application/json' };
const login = (body: unknown, headers: Record<string, string> = {}) => r.app.request('/v1/session', { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });

describe('the web client', () => {
  it('is served at / with a CSP without unsafe-inline and the hardening headers; assets are immutable', async () => {
    const page = await r.app.request('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>Codewhale</title>');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const asset = await r.app.request('/assets/app-1234.js');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-security-policy')).toBe(csp);
  });

  it('serves nothing outside its build, and nothing to a foreign Host', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/secret.txt', '/assets/../../secret.txt', '/nope.js']) {
      const res = await r.app.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('not served');
    }
    expect((await r.app.request('/', { headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await r.app.request('/', { method: 'POST' })).status).not.toBe(200);
  });

  it('logs in with the token: an HttpOnly, SameSite=Strict session cookie that then authenticates', async () => {
    const wrong = await login({ token: 'not-the-token-000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const ok = await login({ token: TOKEN });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^codewhale_runtime_token=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const pair = cookie.split(';')[0]!;
    expect((await r.app.request('/v1/threads', { headers: { cookie: pair } })).status).toBe(200);
    expect((await r.app.request('/v1/threads')).status).toBe(401);
    // The page asks whether it is logged in without a 401 either way.
    expect(await (await r.app.request('/v1/session', { headers: { cookie: pair } })).json()).toEqual({ authenticated: true, auth: 'token' });
    expect(await (await r.app.request('/v1/session', { headers: { cookie: 'codewhale_runtime_token=wrong-token-value' } })).json()).toEqual({ authenticated: false, auth: 'token' });
    expect((await r.app.request('/v1/session')).status).toBe(200);
    const out = await r.app.request('/v1/session', { method: 'DELETE' });
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
  });

  it('refuses a login from another site and a login that is not JSON', async () => {
    expect((await login({ token: TOKEN }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await login({ token: TOKEN }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const form = await r.app.request('/v1/session', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ token: TOKEN }) });
    expect(form.status).toBe(400);
    expect(form.headers.get('set-cookie')).toBeNull();
    expect((await login({ token: TOKEN, code: 'x' })).status).toBe(400);
  });

  it('exchanges a one-time code for the cookie exactly once', async () => {
    const code = codes.issue();
    const first = await login({ code });
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toContain('HttpOnly');
    const again = await login({ code });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect((await login({ code: 'made-up-code' })).status).toBe(401);
  });
});

describe('LoginCodes', () => {
  it('accepts each issued code once before it expires, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant({ op: 'issue' as const }),
            fc.record({ op: fc.constant('take' as const), pick: fc.nat(), forged: fc.option(fc.string(), { nil: undefined }) }),
            fc.record({ op: fc.constant('tick' as const), ms: fc.nat(400_000) }),
          ),
          {
            maxLength: 40,
          },
        ),
        (ops) => {
          let now = 0;
          const c = new LoginCodes({ ttlMs: 600_000, now: () => now });
          const issued: { code: string; at: number }[] = [];
          const used = new Set<string>();
          for (const o of ops) {
            if (o.op === 'issue') issued.push({ code: c.issue(), at: now });
            else if (o.op === 'tick') now += o.ms;
            else if (o.forged !== undefined || issued.length === 0) {
              const forged = o.forged ?? 'x';
              if (!issued.some((i) => i.code === forged)) expect(c.take(forged)).toBe(false);
            } else {
              const i = issued[o.pick % issued.length]!;
              const expected = !used.has(i.code) && now < i.at + 600_000;
              used.add(i.code);
              expect(c.take(i.code)).toBe(expected);
            }
          }
        },
      ),
    );
  });
});
