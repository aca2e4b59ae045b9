/**
 * `Retry-After` (seconds or an HTTP date) and the non-standard `retry-after-ms`, as seconds.
 */

/** Seconds to wait, or `null` when the headers say nothing usable. Negative waits become 0. */
export function parseRetryAfter(headers: { get(name: string): string | null }, nowMs: number = Date.now()): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms) / 1000;
  const value = headers.get('retry-after');
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}
