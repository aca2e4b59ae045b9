/**
 * UTF-8 arithmetic on JavaScript strings without allocating a byte buffer, so bounding a
 * 50 MB string costs one linear scan. A lone surrogate counts as the 3 bytes of U+FFFD,
 * exactly as `TextEncoder` would encode it.
 */

/** UTF-8 byte length of one code point (or lone surrogate) starting at `index`. */
function unitBytes(s: string, index: number): { bytes: number; units: number } {
  const c = s.charCodeAt(index);
  if (c < 0x80) return { bytes: 1, units: 1 };
  if (c < 0x800) return { bytes: 2, units: 1 };
  if (c >= 0xd800 && c <= 0xdbff && index + 1 < s.length) {
    const d = s.charCodeAt(index + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return { bytes: 4, units: 2 };
  }
  return { bytes: 3, units: 1 };
}

const CHUNK_UNITS = 1 << 16;
let scratch: Uint8Array | null = null;
let encoder: InstanceType<typeof TextEncoder> | null = null;

/** Long strings are measured natively, in chunks, through one reusable buffer. */
function byteLengthChunked(s: string): number {
  encoder ??= new TextEncoder();
  scratch ??= new Uint8Array(CHUNK_UNITS * 3);
  let bytes = 0;
  for (let i = 0; i < s.length; ) {
    let end = Math.min(s.length, i + CHUNK_UNITS);
    // Never split a surrogate pair between chunks (each half would count as U+FFFD).
    const last = s.charCodeAt(end - 1);
    if (end < s.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    bytes += encoder.encodeInto(s.slice(i, end), scratch).written;
    i = end;
  }
  return bytes;
}

/** Number of UTF-8 bytes `s` encodes to. */
export function utf8ByteLength(s: string): number {
  if (s.length > 4096) return byteLengthChunked(s);
  let bytes = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      bytes += 1;
      i += 1;
      continue;
    }
    const u = unitBytes(s, i);
    bytes += u.bytes;
    i += u.units;
  }
  return bytes;
}

/**
 * The UTF-16 end index of the longest prefix of `s` whose UTF-8 encoding is at most
 * `maxBytes`, never splitting a code point. Scans only as far as the budget reaches.
 */
export function utf8PrefixEnd(s: string, maxBytes: number): number {
  let bytes = 0;
  let i = 0;
  while (i < s.length) {
    const u = unitBytes(s, i);
    if (bytes + u.bytes > maxBytes) break;
    bytes += u.bytes;
    i += u.units;
  }
  return i;
}

/**
 * The UTF-16 start index of the longest suffix of `s` whose UTF-8 encoding is at most
 * `maxBytes`, never splitting a code point.
 */
export function utf8SuffixStart(s: string, maxBytes: number): number {
  let bytes = 0;
  let i = s.length;
  while (i > 0) {
    let start = i - 1;
    const c = s.charCodeAt(start);
    if (c >= 0xdc00 && c <= 0xdfff && start > 0) {
      const h = s.charCodeAt(start - 1);
      if (h >= 0xd800 && h <= 0xdbff) start -= 1;
    }
    const u = unitBytes(s, start);
    if (bytes + u.bytes > maxBytes) break;
    bytes += u.bytes;
    i = start;
  }
  return i;
}

/** Number of Unicode code points in `s` (a lone surrogate counts as one). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** True when `s` contains no lone surrogate, i.e. it encodes to UTF-8 losslessly. */
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}
