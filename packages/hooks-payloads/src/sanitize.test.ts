import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { sanitizeText, sanitizeLine, sanitizeLabel, previewCommand } from './sanitize.js';
import { isWellFormed } from './utf8.js';

const MARK = '\u2026[truncated]';
const cps = (s: string): number => [...s].length;
/** C0/C1 controls other than \n and \t, plus DEL. */
const CONTROLS_EXCEPT_NL_TAB = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u001b', '\r', '\n', '\t', '\u0000', '\u0007', '\u007f', '\u0085', '\u009b', '\u202e', '\u2028', 'a', ' ', '鲸', '🐋'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 80,
});

describe('sanitizeText', () => {
  it('removes control characters (D17) but keeps \\n and \\t', () => {
    expect(sanitizeText('a\u001b[2Jb\r\nc\td\u0000e\u0007f\u007fg\u0085h\u009bi').text).toBe('a[2Jb\nc\tdefghi');
  });

  it('keeps ordinary text, including non-ASCII, verbatim', () => {
    const s = 'Denied: 用户 🐋 — “quoted” text';
    expect(sanitizeText(s, 2_000)).toEqual({ text: s, truncated: false });
  });

  it('removes bidirectional override and isolate controls (Trojan Source)', () => {
    expect(sanitizeText('a\u202eb\u2066c\u2069d\u202ae').text).toBe('abcde');
  });

  it('caps in code points: exactly max keeps no marker, one more cuts with …[truncated]', () => {
    expect(sanitizeText('abcde', 5)).toEqual({ text: 'abcde', truncated: false });
    expect(sanitizeText('abcdef', 5)).toEqual({ text: `abcde${MARK}`, truncated: true });
    expect(sanitizeText('🐋🐋🐋', 2)).toEqual({ text: `🐋🐋${MARK}`, truncated: true });
    expect(sanitizeText('x'.repeat(2_001), 2_000).text).toBe(`${'x'.repeat(2_000)}${MARK}`);
  });

  it('does not count removed characters toward the cap', () => {
    expect(sanitizeText('ab\u0007\u0007\r', 2)).toEqual({ text: 'ab', truncated: false });
    expect(sanitizeText('\r\r\rabc', 3)).toEqual({ text: 'abc', truncated: false });
  });
});

describe('sanitizeLine', () => {
  it('flattens structure characters to spaces (reference §11.2)', () => {
    expect(sanitizeLine('a\tb\nc').text).toBe('a b c');
    expect(sanitizeLine('a\u2028b\u2029c').text).toBe('a b c');
  });

  it('removes escape sequences rather than spacing them (D17)', () => {
    expect(sanitizeLine('a\u001b[2Jb\r', 100).text).toBe('a[2Jb');
  });
});

describe('sanitizeLabel', () => {
  it('trims, defangs and bounds a hook name at 64 chars', () => {
    expect(sanitizeLabel(' gate ')).toBe('gate');
    expect(sanitizeLabel('\u001b[31mred\u001b[0m\nname')).toBe('[31mred[0m name');
    expect(sanitizeLabel('n'.repeat(100))).toBe(`${'n'.repeat(64)}${MARK}`);
    expect(sanitizeLabel('n'.repeat(64))).toBe('n'.repeat(64));
  });

  it('names an empty or missing label (unnamed)', () => {
    expect(sanitizeLabel(' \t ')).toBe('(unnamed)');
    expect(sanitizeLabel('')).toBe('(unnamed)');
    expect(sanitizeLabel('\u0007\u001b')).toBe('(unnamed)');
    expect(sanitizeLabel(null)).toBe('(unnamed)');
    expect(sanitizeLabel(undefined)).toBe('(unnamed)');
  });
});

describe('previewCommand', () => {
  it('keeps short input intact', () => {
    expect(previewCommand('echo hi')).toBe('echo hi');
    expect(previewCommand('x'.repeat(60))).toBe('x'.repeat(60));
  });

  it('truncates to exactly 60 chars: 59 plus …', () => {
    const p = previewCommand('y'.repeat(61));
    expect(p).toBe(`${'y'.repeat(59)}\u2026`);
    expect(cps(p)).toBe(60);
    expect(cps(previewCommand('鲸'.repeat(200)))).toBe(60);
  });

  it('honours a custom cap (10 chars ending in …)', () => {
    const p = previewCommand('abcdefghijklmnop', 10);
    expect(p).toBe('abcdefghi\u2026');
  });

  it('property: a secret on the command line never reaches the preview, however long the command', () => {
    const secrets = ['sk-live-4f9a8b7c6d5e4f3a2b1c', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'AKIAIOSFODNN7EXAMPLE', 'xoxb-123456789012-abcdefghijkl'];
    fc.assert(
      fc.property(
        fc.constantFrom(...secrets),
        fc.constantFrom('TOKEN=%s ./notify.sh', 'curl -H "Authorization: Bearer %s" https://hooks.example', './gate.sh --api-key %s', 'export API_KEY=%s; ./a.sh'),
        fc.string({ maxLength: 40 }).map((s) => s.replace(/\s/g, '')),
        fc.integer({ min: 8, max: 200 }),
        (secret, shape, prefix, max) => {
          const p = previewCommand(`${prefix} ${shape.replace('%s', secret)}`, max);
          // Neither the secret nor a start of it long enough to mean anything.
          expect(p).not.toContain(secret.slice(0, 12));
          expect(cps(p)).toBeLessThanOrEqual(max);
        },
      ),
      { numRuns: 300 },
    );
    expect(previewCommand('TOKEN=sk-live-4f9a8b7c6d5e4f3a2b1c ./notify.sh')).toBe('[secret] ./notify.sh');
  });

  it('strips newlines and defangs control characters', () => {
    expect(previewCommand('line one\nline two')).toBe('line one line two');
    const p = previewCommand('echo \u001b[2Jhi\r\tthere\u0007');
    expect(p).not.toMatch(/[\u001b\r\t\u0007]/u);
    expect(p).toContain('there');
  });
});

describe('properties', () => {
  it('sanitizeText output has no control character other than \\n and \\t, and stays within the cap', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 0, max: 60 }), (s, max) => {
        const r = sanitizeText(s, max);
        expect(r.text).not.toMatch(CONTROLS_EXCEPT_NL_TAB);
        expect(r.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
        expect(cps(r.text)).toBeLessThanOrEqual(max + cps(MARK));
        expect(r.truncated).toBe(r.text.endsWith(MARK) && cps(r.text) === max + cps(MARK));
      }),
      { numRuns: 300 },
    );
  });

  it('sanitizeLine output is a single line with no control characters at all', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 0, max: 60 }), (s, max) => {
        const t = sanitizeLine(s, max).text;
        expect(t).not.toMatch(ANY_CONTROL);
        expect(t).not.toMatch(/[\u2028\u2029]/u);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent (sanitizeText, sanitizeLine, previewCommand)', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 0, max: 60 }), (s, max) => {
        const t = sanitizeText(s, max).text;
        expect(sanitizeText(t, max).text).toBe(t);
        const l = sanitizeLine(s, max).text;
        expect(sanitizeLine(l, max).text).toBe(l);
        const p = previewCommand(s, Math.max(1, max));
        expect(previewCommand(p, Math.max(1, max))).toBe(p);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves clean text that fits untouched', () => {
    const clean = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '鲸', '🐋', '-', '/', '\n', '\t'), maxLength: 50 });
    fc.assert(
      fc.property(clean, (s) => {
        expect(sanitizeText(s, cps(s))).toEqual({ text: s, truncated: false });
      }),
      { numRuns: 200 },
    );
  });

  it('produces well-formed output from well-formed input, and a preview of at most 60 chars', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (s) => {
        expect(isWellFormed(sanitizeText(s, 30).text)).toBe(true);
        expect(isWellFormed(previewCommand(s))).toBe(true);
        expect(cps(previewCommand(s))).toBeLessThanOrEqual(60);
        expect(cps(sanitizeLabel(s))).toBeLessThanOrEqual(64 + cps(MARK));
      }),
      { numRuns: 200 },
    );
  });
});
