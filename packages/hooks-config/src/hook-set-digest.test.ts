import { describe, expect, it } from 'vitest';
import { canonicalHookSet, hookSetDigest } from './hook-set-digest.js';
import { hooksToml, load } from './test-fixtures.js';
import { sha256Hex, utf8 } from './test-sha256.js';

const A = hooksToml('name = "gate"\nevent = "tool_call_before"\ncommand = "./g.sh"\ncondition = { type = "exit_code", code = 3221225477 }'.replace('tool_call_before', 'tool_call_after'));

describe('hookSetDigest', () => {
  it('is SHA-256 over the canonical serialization', () => {
    const set = load(A);
    expect(canonicalHookSet(set)).toBe(
      '{"version":1,"hooks":[{"event":"tool_call_after","name":"gate","command":"./g.sh","effective_timeout_secs":30,"background":false,"continue_on_error":true,"condition":{"type":"exit_code","code":"3221225477"},"source":"global"}]}',
    );
    expect(hookSetDigest(set, sha256Hex)).toBe(sha256Hex(utf8(canonicalHookSet(set))));
  });

  it('is stable for the same hooks and changes with anything that changes behaviour', () => {
    const base = hookSetDigest(load(A), sha256Hex);
    expect(hookSetDigest(load(`# a comment\n${A}`), sha256Hex)).toBe(base);
    expect(hookSetDigest(load(A.replace('./g.sh', './h.sh')), sha256Hex)).not.toBe(base);
    expect(hookSetDigest(load(A.replace('[hooks]', '[hooks]\ndefault_timeout_secs = 9')), sha256Hex)).not.toBe(base);
    expect(hookSetDigest(load(A.replace('3221225477', '1')), sha256Hex)).not.toBe(base);
    expect(hookSetDigest(load(A, '[[hooks]]\nevent = "turn_end"\ncommand = "p"\n'), sha256Hex)).not.toBe(base);
    // The protocol changes what the command is given and how its answer is read.
    expect(hookSetDigest(load(A.replace('command =', 'protocol = "claude-code"\ncommand =')), sha256Hex)).not.toBe(base);
    // Writing the default protocol out changes nothing.
    expect(hookSetDigest(load(A.replace('command =', 'protocol = "codewhale"\ncommand =')), sha256Hex)).toBe(base);
  });
});
