import { describe, expect, it } from 'vitest';
import { readProjectRecord } from './project-record.js';
import { userConfig } from './test-fixtures.js';

const D = 'ab'.repeat(32);
const rec = (text: string, ws = '/w/p') => readProjectRecord(userConfig(text).document, ws);

describe('readProjectRecord (D12)', () => {
  it('reads trust case-insensitively after trimming, for the exact workspace key', () => {
    expect(rec('[projects."/w/p"]\ntrust_level = " Trusted "\n').trusted).toBe(true);
    expect(rec('[projects.\'/w/p\']\ntrust_level = "trusted"\n').trusted).toBe(true);
    expect(rec('[projects."/w/p"]\ntrust_level = "untrusted"\n').trusted).toBe(false);
    expect(rec('[projects."/w/p/"]\ntrust_level = "trusted"\n').trusted).toBe(false);
    expect(rec('[projects."/w/p"]\ntrust_level = true\n').trusted).toBe(false);
    expect(rec('').trusted).toBe(false);
  });

  it('reads the approval, pins and revoke marker', () => {
    const r = rec(`[projects."/w/p"]\nhooks_approved_sha256 = "${D.toUpperCase()}"\nhooks_approved_scripts = { "a.sh" = "${D}", "b.sh" = "absent" }\n`);
    expect(r).toMatchObject({ approvedSha256: D, revoked: false, malformed: false });
    expect([...r.approvedScripts]).toEqual([
      ['a.sh', D],
      ['b.sh', 'absent'],
    ]);
    expect(rec('[projects."/w/p"]\nhooks_revoked = true\n').revoked).toBe(true);
    expect(rec('[projects."/w/p"]\nhooks_revoked = false\n').revoked).toBe(false);
  });

  it('fails closed on malformed records', () => {
    expect(rec('[projects."/w/p"]\nhooks_approved_sha256 = "abc"\n')).toMatchObject({ approvedSha256: null, malformed: true });
    expect(rec(`[projects."/w/p"]\nhooks_approved_sha256 = "${D}"\nhooks_approved_scripts = { "a.sh" = 1 }\n`).malformed).toBe(true);
    expect(rec('[projects."/w/p"]\nhooks_revoked = "no"\n').revoked).toBe(true);
  });
});
