/**
 * "Did you mean …?" for provider ids and replay-script keys.
 */

/** Optimal-string-alignment distance (insert, delete, substitute, swap neighbours), in code points. */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  const cols = t.length + 1;
  const d = new Array<number>((s.length + 1) * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i <= s.length; i++) d[i * cols] = i;
  for (let j = 0; j <= t.length; j++) d[j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * cols + j] = v;
    }
  }
  return at(s.length, t.length);
}

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
