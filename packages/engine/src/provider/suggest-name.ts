/**
 * "Did you mean …?" for provider ids and replay-script keys. The distance is the one the
 * hook configuration uses for its suggestions (Damerau / optimal string alignment).
 */
import { editDistance } from '@codewhale/hooks-config';

/**
 * The candidate `input` most plausibly meant, or `null`: the same name ignoring case, `-`, `_`
 * and spaces; else a unique candidate that starts with the input or that the input starts with
 * (3+ characters); else the unique nearest one within 1 edit (names under 5 code points),
 * 2 (under 12) or 3.
 */
export function suggestName(input: string, candidates: readonly string[]): string | null {
  if (input === '' || candidates.includes(input)) return null;
  const norm = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');
  const n = norm(input);
  const same = candidates.filter((c) => norm(c) === n);
  if (same.length === 1) return same[0] ?? null;
  if (n.length >= 3) {
    const prefixed = candidates.filter((c) => norm(c).startsWith(n) || n.startsWith(norm(c)));
    if (prefixed.length === 1) return prefixed[0] ?? null;
  }
  const len = Array.from(n).length;
  const budget = len >= 12 ? 3 : len >= 5 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const c of candidates) {
    const distance = editDistance(n, norm(c));
    if (distance < bestDistance) {
      best = c;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) {
      tie = true;
    }
  }
  return best !== null && !tie && bestDistance <= budget && bestDistance < len ? best : null;
}
