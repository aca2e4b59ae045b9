import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displaySafe, redact, REDACTED } from './redact.js';
import { safeCut } from './turn-runner.js';

describe('redact', () => {
  it('removes each credential class wherever it sits in a line, and the exact secret values', () => {
    const cases: [string, string][] = [
      ['ghp_0123456789abcdefABCDEF0123456789abcd', 'push with ghp_0123456789abcdefABCDEF0123456789abcd now'],
      ['github_pat_11ABCDEFG0123456789_abcdef', 'token github_pat_11ABCDEFG0123456789_abcdef'],
      ['xoxb-1234567890-0987654321-AbCdEf', 'slack xoxb-1234567890-0987654321-AbCdEf ok'],
      ['AKIAIOSFODNN7EXAMPLE', 'aws AKIAIOSFODNN7EXAMPLE ok'],
      ['hunter2pass', 'git clone https://bob:hunter2pass@github.com/x.git'],
      ['p4ssw0rd', 'postgres://app:p4ssw0rd@db:5432/x'],
      ['abc.def.ghi', 'curl -H "Authorization: Bearer abc.def.ghi" x'],
      ['s3cretpw', 'mysql --password=s3cretpw -u root'],
      ['sk-proj-Ab3dEf6hIj9k', 'key sk-proj-Ab3dEf6hIj9k'],
      ['cwrt_0123456789abcdef', 'the token cwrt_0123456789abcdef'],
      ['exact-value-xyz', 'prefix exact-value-xyz suffix'],
    ];
    for (const [secret, line] of cases) {
      for (const text of [line, `first line\n${line}\nlast line`]) {
        const out = redact(text, ['exact-value-xyz']);
        expect(out, text).not.toContain(secret);
        expect(out.split('\n').length).toBe(text.split('\n').length);
      }
    }
    expect(redact('https://bob:hunter2pass@example.com/x', [])).toBe(`https://bob:${REDACTED}@example.com/x`);
  });

  it('keeps text without a credential byte for byte (spacing included)', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/).filter((w) => !/pass|secret|token|key|auth|bearer|cookie|session|cred|pw|dsn|sid/.test(w));
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.constantFrom(' ', '  ', '\t', '\n', ' \n ')), { maxLength: 20 }), (parts) => {
        const text = parts.map(([w, s]) => w + s).join('');
        expect(redact(text, [])).toBe(text);
      }),
    );
  });
});

describe('displaySafe', () => {
  it('shows every bidi and zero-width control escaped, and nothing else changes', () => {
    const invisible = [0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff];
    for (const cp of invisible) {
      const out = displaySafe(`rm -rf ${String.fromCodePoint(cp)}/tmp/x`);
      expect(out).not.toContain(String.fromCodePoint(cp));
      expect(out).toContain(`<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const out = displaySafe(s);
        for (const cp of invisible) expect(out.includes(String.fromCodePoint(cp))).toBe(false);
        if (!invisible.some((cp) => s.includes(String.fromCodePoint(cp)))) expect(out).toBe(s);
      }),
    );
  });
});

describe('safeCut (what of a streamed text may be stored before the rest arrives)', () => {
  it('keeps the last three words of the last line back, and never splits a word', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-zA-Z0-9:=_-]{1,12}$/), { maxLength: 12 }), fc.array(fc.constantFrom(' ', '\n', '  '), { maxLength: 12 }), (words, seps) => {
        const text = words.map((w, i) => w + (seps[i] ?? ' ')).join('');
        const cut = safeCut(text);
        expect(cut).toBeGreaterThanOrEqual(0);
        expect(cut).toBeLessThanOrEqual(text.length);
        // The cut is at a word boundary.
        if (cut > 0 && cut < text.length) expect(/\s/.test(text[cut - 1]!)).toBe(true);
        // At most three words of the last line are held back; complete lines always go.
        const held = text.slice(cut);
        expect(held.includes('\n')).toBe(false);
        expect(held.trim() === '' ? 0 : held.trim().split(/\s+/).length).toBeLessThanOrEqual(3);
      }),
    );
    expect(safeCut('Authorization: Bearer')).toBe(0);
    expect(safeCut('see Authorization: Bearer abc')).toBe(4);
    expect(safeCut(`line one\nx ${'y'.repeat(3000)}`)).toBe(3011);
  });
});
