const TRIM = new Set([...`'"\`()[]{},;`]);

/** `s` without the quotes, brackets and list punctuation around it. */
export function coreTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && TRIM.has(s[a]!)) a++;
  while (b > a && TRIM.has(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/** Whitespace-separated fields; a quoted run (`'…'` or `"…"`) stays inside one field. */
export function splitFields(line: string): string[] {
  const fields: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (const ch of line) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = null;
    } else if (/\s/u.test(ch)) {
      if (cur) fields.push(cur);
      cur = '';
    } else {
      if (ch === '"' || ch === "'") quote = ch;
      cur += ch;
    }
  }
  if (cur) fields.push(cur);
  return fields;
}
