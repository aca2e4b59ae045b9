import { describe, expect, it } from 'vitest';
import { isShellToolName, SHELL_TOOL_NAMES } from './shell-tools.js';
import { isStrict } from './is-strict.js';

describe('isShellToolName', () => {
  it('knows exactly the three spellings', () => {
    expect([...SHELL_TOOL_NAMES]).toEqual(['bash', 'Bash', 'exec_shell']);
    for (const n of SHELL_TOOL_NAMES) expect(isShellToolName(n)).toBe(true);
    for (const n of ['BASH', 'shell', 'Run', 'exec', 'read_file', '']) expect(isShellToolName(n)).toBe(false);
  });
  it('the list cannot be changed at run time', () => {
    expect(Object.isFrozen(SHELL_TOOL_NAMES)).toBe(true);
  });
});

describe('isStrict', () => {
  it('is strict only for a foreground hook with continue_on_error = false', () => {
    expect(isStrict({ continueOnError: false, background: false })).toBe(true);
    expect(isStrict({ continueOnError: false, background: true })).toBe(false);
    expect(isStrict({ continueOnError: true, background: false })).toBe(false);
    expect(isStrict({ continueOnError: true, background: true })).toBe(false);
  });
});
