import { ENV_TRUNCATION_MARKER } from './limits.js';
import { utf8ByteLength, utf8PrefixEnd } from './utf8.js';

/** A bounded value: the text kept, and whether anything was dropped to keep it. */
export interface Bounded {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * Truncate once (D18): if `value` is at most `maxBytes` UTF-8 bytes it is returned as is;
 * otherwise the largest code-point-boundary prefix of at most `maxBytes` bytes, followed by
 * `...[truncated]`. The result is at most `maxBytes + 14` bytes.
 */
export function truncateBytes(value: string, maxBytes: number): Bounded {
  if (value.length <= maxBytes / 3 || utf8ByteLength(value) <= maxBytes) {
    return { text: value, truncated: false };
  }
  // A value already in bounded form (a fitting head plus the marker) is left as it is, so
  // bounding twice never nests markers (the reference's double-truncation quirk).
  if (value.endsWith(ENV_TRUNCATION_MARKER)) {
    const head = value.slice(0, value.length - ENV_TRUNCATION_MARKER.length);
    if (utf8ByteLength(head) <= maxBytes) return { text: value, truncated: false };
  }
  return { text: value.slice(0, utf8PrefixEnd(value, maxBytes)) + ENV_TRUNCATION_MARKER, truncated: true };
}
