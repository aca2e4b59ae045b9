import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { sessionIdFromBytes, isSessionId } from './session-id.js';

describe('sessionIdFromBytes', () => {
  it('renders 4 bytes as sess_ + 8 lowercase hex characters', () => {
    expect(sessionIdFromBytes(new Uint8Array([0xde, 0xad, 0xbe, 0xef]))).toBe('sess_deadbeef');
    expect(sessionIdFromBytes(new Uint8Array([0, 1, 2, 3, 4, 5]))).toBe('sess_00010203');
  });

  it('refuses fewer than 4 bytes', () => {
    expect(() => sessionIdFromBytes(new Uint8Array([1, 2, 3]))).toThrow(RangeError);
  });
});

describe('isSessionId', () => {
  it('accepts exactly sess_ + 8 lowercase hex', () => {
    expect(isSessionId('sess_12345678')).toBe(true);
    expect(isSessionId('sess_abcdef09')).toBe(true);
    expect(isSessionId('sess_ABCDEF09')).toBe(false);
    expect(isSessionId('sess_1234567')).toBe(false);
    expect(isSessionId('sess_123456789')).toBe(false);
    expect(isSessionId('ses_12345678')).toBe(false);
    expect(isSessionId(' sess_12345678')).toBe(false);
    expect(isSessionId(12345678)).toBe(false);
    expect(isSessionId(null)).toBe(false);
  });
});

describe('properties', () => {
  it('every 4 random bytes give a well-formed, 13-character id that encodes those bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 8 }), (bytes) => {
        const id = sessionIdFromBytes(bytes);
        expect(id).toHaveLength(13);
        expect(isSessionId(id)).toBe(true);
        expect(Number.parseInt(id.slice(5), 16)).toBe(((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!);
      }),
      { numRuns: 200 },
    );
  });
});
