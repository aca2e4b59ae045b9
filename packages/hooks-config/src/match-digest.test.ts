import { describe, expect, it } from 'vitest';
import { matchDigest } from './match-digest.js';

const D = 'ab'.repeat(32);
const E = `abababababab${'cd'.repeat(26)}`;

describe('matchDigest (D11)', () => {
  it('accepts the full digest, case-insensitively, with blanks and a sha256: prefix', () => {
    expect(matchDigest(D, [D])).toEqual({ ok: true, value: D });
    expect(matchDigest(` ${D.toUpperCase()} `, [D])).toEqual({ ok: true, value: D });
    expect(matchDigest(`sha256:${D}`, [D])).toEqual({ ok: true, value: D });
  });

  it('accepts a unique prefix of at least 12 hex characters', () => {
    expect(matchDigest(D.slice(0, 12), [D])).toEqual({ ok: true, value: D });
    expect(matchDigest(D.slice(0, 13).toUpperCase(), [D])).toEqual({ ok: true, value: D });
  });

  it('refuses a prefix shorter than 12', () => {
    const r = matchDigest(D.slice(0, 11), [D]);
    expect(r.ok ? null : r.issues[0]!.code).toBe('digest_too_short');
  });

  it('refuses a prefix that two candidates share', () => {
    const r = matchDigest(D.slice(0, 12), [D, E]);
    expect(r.ok ? null : r.issues[0]!.code).toBe('digest_ambiguous');
    expect(matchDigest(D.slice(0, 14), [D, E])).toEqual({ ok: true, value: D });
  });

  it('refuses a digest that does not match the file as it is now', () => {
    const r = matchDigest('cd'.repeat(32), [D]);
    expect(r.ok ? null : r.issues[0]!.code).toBe('digest_mismatch');
  });

  it('refuses non-hex and over-long input', () => {
    for (const bad of ['', 'xyz123456789012', `${D}00`, 'abababab abababab']) {
      const r = matchDigest(bad, [D]);
      expect(r.ok ? null : r.issues[0]!.code, bad).toBe('invalid_digest');
    }
  });
});
