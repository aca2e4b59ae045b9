import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { sanitizeDenialReason, DEFAULT_DENIAL_TEXT } from './denial-reason.js';
import { isWellFormed } from './utf8.js';

const cps = (s: string): number => [...s].length;

describe('sanitizeDenialReason: exact reference vectors (reference §11.4)', () => {
  it.each([
    ['denied /Users/alice/private --command token=SUPERSECRET safe', 'denied [path] [argument] [secret] safe'],
    ['blocked command rm bearer abc123', 'blocked [command] [command] [secret] [secret]'],
    ['Authorization: Bearer abc', '[secret] [secret] [secret]'],
    ['blocked /Users/alice/private --run token=SUPERSECRET', 'blocked [path] [argument] [secret]'],
    ['policy', 'policy'],
    ['nope', 'nope'],
    ['blocked by project policy', 'blocked by project policy'],
  ])('%s → %s', (reason, expected) => {
    expect(sanitizeDenialReason(reason)).toBe(expected);
  });
});

describe('sanitizeDenialReason: auth schemes, normalized secret keys, relative paths', () => {
  it.each([
    ['Denied Authorization=Digest deadbeef service.API-KEY=topsecret', ['Digest', 'deadbeef', 'topsecret']],
    ['Denied Authorization=Negotiate kerberos AWS_SESSION_TOKEN=abc123', ['kerberos', 'abc123']],
    ['Denied Authorization=NTLM credential internal_secret=hunter2', ['credential', 'hunter2']],
    ['Denied Authorization=Proprietary-Scheme opaque-credential src/private/key.txt', ['opaque-credential', 'private', 'key.txt']],
    ['Authorization: Basic dXNlcjpwYXNz src/private/config.toml', ['dXNlcjpwYXNz', 'private', 'config.toml']],
    ['Basic dXNlcjpwYXNz src/private/config.toml', ['dXNlcjpwYXNz', 'private', 'config.toml']],
    ['Denied Negotiate kerberos AWS_SESSION_TOKEN=abc123', ['kerberos', 'abc123']],
    ['Denied NTLM credential internal_secret=hunter2', ['credential', 'hunter2']],
    ['Denied Digest deadbeef', ['deadbeef']],
  ])('%s keeps no secret or path', (reason, leaks) => {
    const out = sanitizeDenialReason(reason);
    expect(out).toContain('[secret]');
    for (const leak of leaks) expect(out).not.toContain(leak);
  });

  it('redacts header, quoted and key=value forms of paths and commands', () => {
    expect(sanitizeDenialReason('path = C:\\private')).toBe('[path] [path]');
    expect(sanitizeDenialReason('command = "powershell -enc SECRET"')).toBe('[command] [command]');
    expect(sanitizeDenialReason('path="/Users/alice/private key"')).toBe('[path]');
    expect(sanitizeDenialReason('"command=rm -rf /" refused')).toBe('[command] refused');
    expect(sanitizeDenialReason('cwd: /srv/app')).toBe('[path] [path]');
    expect(sanitizeDenialReason('executable=/bin/sh')).toBe('[command]');
  });

  it('redacts secret-key assignments with normalized keys (-, . → _; *_token, *_secret, *_api_key)', () => {
    expect(sanitizeDenialReason('x-api-key: abc')).toBe('[secret] [secret]');
    expect(sanitizeDenialReason('GITHUB_TOKEN=ghp_abc ok')).toBe('[secret] ok');
    expect(sanitizeDenialReason('my.client-secret=s3cr3t')).toBe('[secret]');
    expect(sanitizeDenialReason('OPENAI_API_KEY=sk-xyz')).toBe('[secret]');
    expect(sanitizeDenialReason('password: hunter2 done')).toBe('[secret] [secret] done');
    expect(sanitizeDenialReason('apikey=1 passwd=2')).toBe('[secret] [secret]');
  });

  it('redacts a secret-like key written apart from its value', () => {
    expect(sanitizeDenialReason('GITHUB_TOKEN = abc ok')).toBe('[secret] [secret] ok');
    expect(sanitizeDenialReason('api-key: abc')).toBe('[secret] [secret]');
  });

  it('keeps an auth-scheme word but redacts the credential after it', () => {
    expect(sanitizeDenialReason('Basic dXNlcjpwYXNz src/private/config.toml')).toBe('Basic [secret] [path]');
  });

  it('redacts well-known token prefixes case-insensitively', () => {
    expect(sanitizeDenialReason('use sk-abc123 or ghp_xyz or GITHUB_PAT_abc')).toBe('use [secret] or [secret] or [secret]');
  });

  it('over-redacts on purpose: a/b, a:b and URLs are paths', () => {
    expect(sanitizeDenialReason('and/or a:b http://x')).toBe('[path] [path] [path]');
    expect(sanitizeDenialReason('see ~/notes and ./x and ../y')).toBe('see [path] and [path] and [path]');
  });

  it('an authorization value without a scheme separator redacts the next field too', () => {
    expect(sanitizeDenialReason('authorization=Bearer abc')).toBe('[secret] [secret]');
    expect(sanitizeDenialReason('Authorization: Digest deadbeef')).toBe('[secret] [secret] [secret]');
  });

  it('drops lone = and : fields without losing a pending redaction', () => {
    expect(sanitizeDenialReason('token = abc')).toBe('[secret] [secret]');
    expect(sanitizeDenialReason('file : /x rest')).toBe('[path] [path] rest');
  });

  it('keeps punctuation of ordinary words verbatim', () => {
    expect(sanitizeDenialReason('(blocked), sorry;')).toBe('(blocked), sorry;');
  });

  it('is never empty: nothing left becomes `hook denied the action`', () => {
    expect(DEFAULT_DENIAL_TEXT).toBe('hook denied the action');
    expect(sanitizeDenialReason('')).toBe('hook denied the action');
    expect(sanitizeDenialReason('   \n\t ')).toBe('hook denied the action');
    expect(sanitizeDenialReason('\u0007\u001b')).toBe('hook denied the action');
  });

  it('is a single line without control characters', () => {
    expect(sanitizeDenialReason('no\nway\u001b[2J\tthere')).toBe('no way[2J there');
  });

  it('bounds the result at 240 chars plus the marker', () => {
    const out = sanitizeDenialReason('word '.repeat(200));
    expect(out.endsWith('\u2026[truncated]')).toBe(true);
    expect(cps(out)).toBeLessThanOrEqual(240 + 12);
    // redaction can lengthen a line; the second pass bounds it again
    const grown = sanitizeDenialReason('/a '.repeat(80));
    expect(cps(grown)).toBeLessThanOrEqual(240 + 12);
  });
});

describe('properties', () => {
  const word = fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/);
  // A value after a bare word must look like one (`password reset` is prose): end in a digit.
  const secret = fc.stringMatching(/^[A-Za-z0-9]{11,19}$/).map((s) => `${s}7`);
  // `key=value`, `key: value`, `key = value` or `key value` for any secret-like key, and an
  // auth scheme followed by its credential.
  const assignment = fc.oneof(
    fc.tuple(
      fc.constantFrom('token', 'Secret', 'PASSWORD', 'passwd', 'api_key', 'apikey', 'API-KEY', 'GITHUB_TOKEN', 'client.secret', 'x_api_key', 'Bearer', 'authorization'),
      fc.constantFrom('=', ': ', ' = ', ':', ' : ', ' '),
    ),
    fc.tuple(fc.constantFrom('Basic', 'Digest', 'Negotiate', 'NTLM', 'Authorization: Bearer', 'Authorization=Basic'), fc.constant(' ')),
  );

  it('a secret assigned to a secret-like key never survives', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), assignment, secret, fc.array(word, { maxLength: 5 }), (before, [k, s], value, after) => {
        const out = sanitizeDenialReason([...before, `${k}${s}${value}`, ...after].join(' '));
        expect(out).not.toContain(value);
      }),
      { numRuns: 300 },
    );
  });

  it('a path never survives', () => {
    const segment = fc.stringMatching(/^[a-z]{3,8}$/);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 5 }), fc.array(segment, { minLength: 2, maxLength: 4 }), (before, segs) => {
        const path = `/${segs.join('/')}`;
        const out = sanitizeDenialReason([...before, path].join(' '));
        expect(out).not.toContain(path);
      }),
      { numRuns: 200 },
    );
  });

  it('is always a bounded, non-empty, well-formed single line with no control character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (s) => {
        const out = sanitizeDenialReason(s);
        expect(isWellFormed(out)).toBe(true);
        expect(out.trim()).not.toBe('');
        expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u);
        expect(cps(out)).toBeLessThanOrEqual(240 + 12);
      }),
      { numRuns: 300 },
    );
  });
});
