import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { normalizeExitCode, TOOL_RUN_STATUSES } from './context.js';

describe('normalizeExitCode (reference §8.2)', () => {
  it('keeps real integer exit codes, 0 included', () => {
    expect(normalizeExitCode(0)).toBe(0n);
    expect(normalizeExitCode(127)).toBe(127n);
    expect(normalizeExitCode(-1)).toBe(-1n);
    expect(normalizeExitCode(3221225477)).toBe(3221225477n);
    expect(normalizeExitCode(3221225477n)).toBe(3221225477n);
  });

  it('accepts the whole signed 64-bit range and nothing beyond it', () => {
    expect(normalizeExitCode(2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(normalizeExitCode(-(2n ** 63n))).toBe(-(2n ** 63n));
    expect(normalizeExitCode(2n ** 63n)).toBeNull();
    expect(normalizeExitCode(-(2n ** 63n) - 1n)).toBeNull();
  });

  it('never synthesizes a code from something that is not one', () => {
    expect(normalizeExitCode(null)).toBeNull();
    expect(normalizeExitCode(undefined)).toBeNull();
    expect(normalizeExitCode('127')).toBeNull();
    expect(normalizeExitCode(1.5)).toBeNull();
    expect(normalizeExitCode(Number.NaN)).toBeNull();
    expect(normalizeExitCode(true)).toBeNull();
    expect(normalizeExitCode(2 ** 60)).toBeNull(); // an unsafe double is not an exact integer
  });

  it('lists the shell statuses', () => {
    expect(TOOL_RUN_STATUSES).toEqual(['completed', 'failed', 'timed_out', 'killed', 'running']);
  });
});

describe('properties', () => {
  it('every signed 64-bit bigint and every safe integer survives unchanged', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => normalizeExitCode(n) === n),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => normalizeExitCode(n) === BigInt(n)),
      { numRuns: 200 },
    );
  });
});
