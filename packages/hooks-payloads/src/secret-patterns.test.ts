import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { SECRET_NAME_RULES, TOKEN_SHAPE_RULES, normalizeSecretName, secretNameRule, tokenShapeRule } from './secret-patterns.js';
import { sanitizeDenialReason } from './denial-reason.js';
import { foldToolCallBefore } from './tool-call-before.js';
import { foldMessageSubmit } from './message-submit.js';
import { gateDecisionToJson } from './decision-record-json.js';
import { outcomeOf } from './test-outcome.js';

describe('SECRET_NAME_RULES: each row catches its examples, in every spelling', () => {
  for (const rule of SECRET_NAME_RULES) {
    it(`${rule.id}: ${rule.examples.join(', ')}`, () => {
      expect(rule.examples.length).toBeGreaterThan(0);
      for (const name of rule.examples) {
        expect(rule.pattern.test(normalizeSecretName(name)), name).toBe(true);
        expect(secretNameRule(name), name).not.toBeNull();
        expect(sanitizeDenialReason(`denied ${name}=hunter2x9 ok`), name).toBe('denied [secret] ok');
        expect(sanitizeDenialReason(`denied ${name}: hunter2x9 ok`), name).toBe('denied [secret] [secret] ok');
      }
    });
  }

  it('normalises camelCase, dashes and dots', () => {
    expect(normalizeSecretName('npmAuthToken')).toBe('npm_auth_token');
    expect(normalizeSecretName('X-Api-Key')).toBe('x_api_key');
    expect(normalizeSecretName('connect.sid')).toBe('connect_sid');
  });

  it.each(['key', 'author', 'authors', 'bypass', 'monkey', 'keyboard', 'name', 'path', 'mode', 'passage', 'compass', 'tokenish'.slice(0, 3)])('%s is not a credential name', (name) => {
    expect(secretNameRule(name)).toBeNull();
  });
});

describe('TOKEN_SHAPE_RULES: each row catches its examples on its own', () => {
  for (const rule of TOKEN_SHAPE_RULES) {
    it(`${rule.id} (${rule.description})`, () => {
      expect(rule.examples.length).toBeGreaterThan(0);
      for (const token of rule.examples) {
        expect(rule.pattern.test(token), token).toBe(true);
        expect(tokenShapeRule(token), token).not.toBeNull();
        for (const form of [token, `"${token}"`, `(${token}),`, `value:${token}`, `{"v":"${token}"}`, `x=${token}`]) {
          const out = sanitizeDenialReason(`blocked ${form} here`);
          expect(out, form).toBe('blocked [secret] here');
        }
      }
    });
  }

  it.each(['risky', 'skill', 'sk-', 'ghp', 'AKIA', 'eyJ.eyJ.', 'hf_short', 'npm_short', 'the', 'deploy-prod'])('%s is no token', (word) => {
    expect(tokenShapeRule(word)).toBeNull();
  });
});

describe('headers, PEM blocks, JSON', () => {
  it.each([
    ['Authorization: Bearer abc.def-ghi rest', '[secret] [secret] [secret] rest'],
    ['Proxy-Authorization: Basic dXNlcjpwYXNz rest', '[secret] [secret] [secret] rest'],
    ['Cookie: a=1; sid=xyz; theme=dark rest', '[secret] [secret] [secret] [secret] rest'],
    ['Set-Cookie: sessionid=abc; Path=/; HttpOnly rest', '[secret] [secret] [secret] [secret] rest'],
    ['Cookie:sid=abc rest', '[secret] rest'],
    ['X-Session-Token: abc rest', '[secret] [secret] rest'],
    ['{"password": "hunter2"} rest', '[secret] [secret] rest'],
    ['{"password":"hunter2"} rest', '[secret] rest'],
    ['"token = abc" rest', '[secret] rest'],
    ['blocked -----BEGIN RSA PRIVATE KEY----- MIIEow AbCd== -----END RSA PRIVATE KEY----- rest', 'blocked [secret] rest'],
    ['blocked -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXk', 'blocked [secret]'],
  ])('%s → %s', (reason, expected) => {
    expect(sanitizeDenialReason(reason)).toBe(expected);
  });

  it('a credential word followed by a value-looking word redacts both; by prose, neither', () => {
    expect(sanitizeDenialReason('password hunter2 rejected')).toBe('[secret] [secret] rejected');
    expect(sanitizeDenialReason('token AbCdEfGh rejected')).toBe('[secret] [secret] rejected');
    expect(sanitizeDenialReason('the password reset page is down')).toBe('the password reset page is down');
    expect(sanitizeDenialReason('the key idea: session cookies expire')).toBe('the key idea: session cookies expire');
    expect(sanitizeDenialReason('Authorization failed for this token')).toBe('Authorization failed for this token');
    expect(sanitizeDenialReason('basic checks failed')).toBe('basic checks failed');
  });
});

// ---- properties -------------------------------------------------------------------------

const PROSE = [
  'the',
  'key',
  'idea',
  'password',
  'reset',
  'page',
  'token',
  'secret',
  'session',
  'cookie',
  'auth',
  'credentials',
  'is',
  'was',
  'not',
  'allowed',
  'here',
  'policy',
  'blocked',
  'by',
  'project',
  'because',
  'expired',
  'bearer',
  'login',
  'access',
  'private',
  'api',
  'author',
  'keys',
  'user',
  'rotate',
  'your',
  'first',
  'please',
  'denied',
  'a',
  'of',
];
const prose = fc.array(fc.constantFrom(...PROSE), { minLength: 1, maxLength: 25 }).map((w) => w.join(' '));

/** Random surrounding text: ordinary words, punctuation and arbitrary printable junk. */
const surrounding = fc.array(
  fc.oneof(
    fc.constantFrom(...PROSE),
    fc.constantFrom('(', ')', ',', ';', '"', "'", '=', ':', '-', '—', '…'),
    fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/\s/.test(s)),
  ),
  { maxLength: 12 },
);

const value = fc.stringMatching(/^[A-Za-z0-9]{10,20}$/).map((s) => `${s}9Q`);
const TOKENS = TOKEN_SHAPE_RULES.flatMap((r) => r.examples);
const NAMES = SECRET_NAME_RULES.flatMap((r) => r.examples);
const COMPOUND_NAMES = NAMES.filter((n) => normalizeSecretName(n).includes('_'));

/** A planted secret: the text to plant and the values that must not survive. */
const planted = fc.oneof(
  fc.tuple(fc.constantFrom(...TOKENS), fc.constantFrom('', '"', "'", '(', '[', '<')).map(([t, q]) => ({ text: `${q}${t}${q === '(' ? ')' : q === '[' ? ']' : q === '<' ? '>' : q}`, secrets: [t] })),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('=', ': ', ' = ', ':', ' : ', '="', ': "', '":"', '" : "'), value).map(([n, s, v]) => ({
    text: `${s.startsWith('"') ? '"' : ''}${n}${s}${v}${s.endsWith('"') ? '"' : ''}`,
    secrets: [v],
  })),
  fc.tuple(fc.constantFrom(...COMPOUND_NAMES), value).map(([n, v]) => ({ text: `${n} ${v}`, secrets: [v] })),
  fc
    .tuple(fc.constantFrom('Authorization: Bearer', 'Authorization: Basic', 'authorization=Bearer', 'Basic', 'Digest', 'Bearer', 'bearer'), value)
    .map(([h, v]) => ({ text: `${h} ${v}`, secrets: [v] })),
  fc.tuple(value, value).map(([a, b]) => ({ text: `Cookie: sid=${a}; csrftoken=${b}`, secrets: [a, b] })),
  fc.tuple(fc.array(value, { minLength: 1, maxLength: 4 }), fc.constantFrom('RSA ', 'EC ', 'OPENSSH ', '')).map(([lines, kind]) => ({
    text: `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${kind}PRIVATE KEY-----`,
    secrets: lines,
  })),
);

/** Every output channel a structured reason reaches in this package. */
function channels(reason: string): string[] {
  const denied = foldToolCallBefore({
    tool: 'exec_shell',
    originalInput: { command: 'ls' },
    outcomes: [outcomeOf('tool_call_before', 'gate', { stdout: JSON.stringify({ decision: 'deny', reason }) })],
  });
  const exit2 = foldToolCallBefore({
    tool: 'exec_shell',
    originalInput: { command: 'ls' },
    outcomes: [outcomeOf('tool_call_before', 'gate', { exit: 2, stdout: JSON.stringify({ reason }) })],
  });
  const blocked = foldMessageSubmit('hi', [outcomeOf('message_submit', 'm', { exit: 2, stdout: JSON.stringify({ reason }) })]);
  return [sanitizeDenialReason(reason), denied.message ?? '', JSON.stringify(gateDecisionToJson(denied)), exit2.message ?? '', JSON.stringify(gateDecisionToJson(exit2)), JSON.stringify(blocked)];
}

describe('properties', { timeout: 120_000 }, () => {
  it('a planted secret of every known shape, in random surrounding text, never survives into any channel', () => {
    fc.assert(
      fc.property(surrounding, planted, surrounding, (before, p, after) => {
        const reason = [...before, p.text, ...after].join(' ');
        for (const out of channels(reason)) for (const s of p.secrets) expect(out, reason).not.toContain(s);
      }),
      { numRuns: 1500 },
    );
  });

  it('ordinary prose survives unchanged', () => {
    fc.assert(
      fc.property(prose, (text) => {
        fc.pre([...text].length <= 240);
        expect(sanitizeDenialReason(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('every row is exercised: each token example and each name example is caught on its own', () => {
    for (const t of TOKENS) expect(sanitizeDenialReason(t), t).toBe('[secret]');
    for (const n of NAMES) expect(sanitizeDenialReason(`${n}=x1`), n).toBe('[secret]');
  });

  it('a secret cut in two by the 2,000-character bound upstream leaves no part behind', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOKENS), fc.nat(), (token, at) => {
        const offset = 8 + (at % Math.max(1, token.length - 8)); // cut after 8+ characters of it
        // A long path before it collapses to `[path]`, so the cut end is inside the 240 shown.
        const reason = `/${'x'.repeat(2000 - offset - 2)} ${token}`;
        for (const out of channels(reason)) expect(out, token).not.toContain(token.slice(0, offset));
      }),
      { numRuns: 60 },
    );
  });
});
