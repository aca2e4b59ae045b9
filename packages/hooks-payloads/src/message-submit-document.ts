import { LIMITS } from './limits.js';
import { truncateBytes } from './bounded.js';
import { modeSpellingFor } from './modes.js';
import { utf8ByteLength } from './utf8.js';

/** What the `message_submit` stdin document is built from. */
export interface MessageSubmitInput {
  readonly text: string;
  readonly sessionId?: string | null;
  readonly workspace?: string | null;
  /** Any mode spelling; the document carries the UI label (`ACT`, `PLAN`, `OPERATE`). */
  readonly mode?: string | null;
  readonly model?: string | null;
  readonly totalTokens?: number | null;
}

/** The bounded document, serialized, plus what was kept. */
export interface MessageSubmitDocument {
  /** Compact JSON, at most 32,768 bytes (the trailing newline the runner adds is not counted). */
  readonly json: string;
  /** The retained text (a prefix of the input). */
  readonly text: string;
  readonly textBytes: number;
  readonly textOriginalBytes: number;
  readonly textTruncated: boolean;
  /** The per-field metadata cap used, or `null` when metadata had to be omitted. */
  readonly metadataCap: number | null;
}

/** Bytes `ch` adds inside a JSON string literal (as `JSON.stringify` escapes it). */
function escapedBytes(code: number, pairBytes: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return pairBytes === 4 ? 4 : 6; // lone surrogates are escaped as \udxxx
  return 3;
}

interface Shape {
  readonly metadata: Record<string, string | number | null> | null;
}

function serialize(shape: Shape, text: string, textBytes: number, originalBytes: number, truncated: boolean): string {
  const doc: Record<string, unknown> = {
    event: 'message_submit',
    text,
    text_bytes: textBytes,
    text_original_bytes: originalBytes,
    text_truncated: truncated,
  };
  if (shape.metadata) Object.assign(doc, shape.metadata);
  return JSON.stringify(doc);
}

function metadataAt(input: MessageSubmitInput, cap: number): Record<string, string | number | null> {
  const str = (v: string | null | undefined): string | null => (v == null ? null : truncateBytes(v, cap).text);
  const tokens = input.totalTokens;
  return {
    session_id: str(input.sessionId),
    workspace: str(input.workspace),
    mode: str(input.mode == null ? null : modeSpellingFor('ui', input.mode)),
    model: str(input.model),
    total_tokens: tokens != null && Number.isFinite(tokens) ? Math.max(0, Math.trunc(tokens)) : null,
  };
}

/**
 * The `message_submit` stdin document, capped at 32 KiB after JSON escaping. Metadata is
 * bounded first (each string at 4,096, then 1,024, then 256 bytes with `...[truncated]`,
 * then omitted), then `text` is the largest UTF-8 prefix that fits. `text_bytes` is the
 * retained prefix's byte length, `text_original_bytes` the full length, `text_truncated`
 * whether they differ. Linear in the retained prefix, not in the whole text: bounding a
 * 50 MB message scans it once for its byte length and serializes at most 32 KiB.
 */
export function buildMessageSubmitDocument(input: MessageSubmitInput): MessageSubmitDocument {
  const max = LIMITS.messageSubmitDocumentMaxBytes;
  const text = input.text;
  const originalBytes = utf8ByteLength(text);

  let shape: Shape = { metadata: null };
  let cap: number | null = null;
  for (const c of LIMITS.messageSubmitMetadataCaps) {
    const candidate: Shape = { metadata: metadataAt(input, c) };
    if (utf8ByteLength(serialize(candidate, '', 0, originalBytes, originalBytes > 0)) <= max) {
      shape = candidate;
      cap = c;
      break;
    }
  }

  if (originalBytes <= max) {
    const full = serialize(shape, text, originalBytes, originalBytes, false);
    if (utf8ByteLength(full) <= max) {
      return { json: full, text, textBytes: originalBytes, textOriginalBytes: originalBytes, textTruncated: false, metadataCap: cap };
    }
  }

  // Room for the escaped text: the document with an empty text, whose numbers are then
  // widened to the final `text_bytes` (at most 5 digits) — measured, not guessed.
  const skeleton = utf8ByteLength(serialize(shape, '', 0, originalBytes, true));
  let budget = max - skeleton - 5;
  let end = 0;
  let bytes = 0;
  while (end < text.length && budget > 0) {
    const code = text.charCodeAt(end);
    let units = 1;
    let pair = 0;
    if (code >= 0xd800 && code <= 0xdbff && end + 1 < text.length) {
      const d = text.charCodeAt(end + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        units = 2;
        pair = 4;
      }
    }
    const cost = escapedBytes(code, pair);
    if (cost > budget) break;
    budget -= cost;
    bytes += pair === 4 ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    end += units;
  }
  // The 5 bytes held back for `text_bytes` digits may be partly unused: extend one code
  // point at a time while the real document still fits, so the prefix is the largest.
  let json = serialize(shape, text.slice(0, end), bytes, originalBytes, true);
  while (end < text.length && bytes < max) {
    const c = text.charCodeAt(end);
    const units = c >= 0xd800 && c <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    const nextBytes = bytes + utf8ByteLength(text.slice(end, end + units));
    const candidate = serialize(shape, text.slice(0, end + units), nextBytes, originalBytes, true);
    if (utf8ByteLength(candidate) > max) break;
    json = candidate;
    end += units;
    bytes = nextBytes;
  }
  // Walk back if the document is over (it cannot be by construction, but the bound is the
  // contract, so it is checked rather than assumed). Also walk back when the whole text was
  // kept: the complete document (`"text_truncated":false`) did not fit, and a document that
  // keeps every byte must not claim `text_truncated: true` — the flag says whether
  // `text_bytes` and `text_original_bytes` differ. (`true` is one byte shorter than `false`.)
  while ((utf8ByteLength(json) > max || end >= text.length) && end > 0) {
    end -= 1;
    const c = text.charCodeAt(end);
    if (c >= 0xdc00 && c <= 0xdfff && end > 0) {
      const h = text.charCodeAt(end - 1);
      if (h >= 0xd800 && h <= 0xdbff) end -= 1;
    }
    bytes = utf8ByteLength(text.slice(0, end));
    json = serialize(shape, text.slice(0, end), bytes, originalBytes, true);
  }
  if (utf8ByteLength(json) > max) {
    json = JSON.stringify({ event: 'message_submit', text: '', text_bytes: 0, text_original_bytes: originalBytes, text_truncated: originalBytes !== 0 });
    return { json, text: '', textBytes: 0, textOriginalBytes: originalBytes, textTruncated: originalBytes !== 0, metadataCap: null };
  }
  return { json, text: text.slice(0, end), textBytes: bytes, textOriginalBytes: originalBytes, textTruncated: true, metadataCap: cap };
}
