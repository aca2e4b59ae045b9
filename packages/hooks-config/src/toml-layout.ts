/**
 * Where things are in a TOML text: table headers and key/value lines, with offsets and
 * 1-based line numbers. smol-toml gives values, not positions; this scanner gives positions
 * so problems can name a line and the config editor can change one key without touching
 * anything else. It understands strings (all four kinds), comments and multi-line arrays /
 * inline tables, so a `[` inside a string or an array is never mistaken for a header. It
 * assumes text that already parsed as TOML; on anything else it stays total but approximate.
 */

export interface TomlHeader {
  readonly kind: 'table' | 'array';
  /** Decoded key path: `[projects."/a/b"]` → `['projects', '/a/b']`. */
  readonly path: readonly string[];
  readonly line: number;
  /** Offset of the start of the header's line. */
  readonly start: number;
  /** Offset just past the header line's terminator (or the end of the text). */
  readonly end: number;
}

export interface TomlEntry {
  /** Index of the header this entry sits under, or -1 for the root table. */
  readonly table: number;
  /** Decoded (dotted) key path, relative to the table. */
  readonly key: readonly string[];
  readonly line: number;
  /** Offset of the start of the entry's first line. */
  readonly start: number;
  readonly valueStart: number;
  /** Offset just past the value (before trailing blanks and any comment). */
  readonly valueEnd: number;
  /** Offset just past the terminator of the line the value ends on (or the end of the text). */
  readonly end: number;
}

export interface TomlLayout {
  readonly headers: readonly TomlHeader[];
  readonly entries: readonly TomlEntry[];
  /** The file's line terminator (from its first line break), `\n` when it has none. */
  readonly newline: '\n' | '\r\n';
}

const BARE_KEY = /[A-Za-z0-9_-]/;

/** Scan `text` for headers and key/value entries (see the module comment). */
export function scanTomlLayout(text: string): TomlLayout {
  const n = text.length;
  const lineStarts = [0];
  for (let k = 0; k < n; k++) if (text.charCodeAt(k) === 10) lineStarts.push(k + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const headers: TomlHeader[] = [];
  const entries: TomlEntry[] = [];
  let i = 0;

  const skipBlanks = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  const toLineEnd = (from: number): number => {
    let j = from;
    while (j < n && text[j] !== '\n') j++;
    return j < n ? j + 1 : n;
  };
  const parseKey = (): string[] | null => {
    const path: string[] = [];
    for (;;) {
      skipBlanks();
      const c = text[i];
      if (c === '"') {
        const end = scanBasic(text, i);
        path.push(decodeBasic(text.slice(i + 1, end - 1)));
        i = end;
      } else if (c === "'") {
        const end = scanLiteral(text, i);
        path.push(text.slice(i + 1, end - 1));
        i = end;
      } else {
        const s = i;
        while (i < n && BARE_KEY.test(text[i]!)) i++;
        if (i === s) return null;
        path.push(text.slice(s, i));
      }
      skipBlanks();
      if (text[i] === '.') {
        i++;
        continue;
      }
      return path;
    }
  };

  while (i < n) {
    const lineStart = i;
    skipBlanks();
    const c = text[i];
    if (c === undefined) break;
    if (c === '\n' || c === '\r' || c === '#') {
      i = toLineEnd(i);
      continue;
    }
    if (c === '[') {
      const kind = text[i + 1] === '[' ? 'array' : 'table';
      i += kind === 'array' ? 2 : 1;
      const path = parseKey();
      const end = toLineEnd(i);
      if (path) headers.push({ kind, path, line: lineAt(lineStart), start: lineStart, end });
      i = end;
      continue;
    }
    const key = parseKey();
    skipBlanks();
    if (!key || text[i] !== '=') {
      i = toLineEnd(i);
      continue;
    }
    i++;
    skipBlanks();
    const valueStart = i;
    const valueEnd = scanValue(text, i);
    const end = toLineEnd(valueEnd);
    entries.push({ table: headers.length - 1, key, line: lineAt(lineStart), start: lineStart, valueStart, valueEnd, end });
    i = end;
  }
  const firstBreak = text.indexOf('\n');
  const newline = firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n';
  return { headers, entries, newline };
}

/** Offset just past the TOML value starting at `i`. */
function scanValue(text: string, i: number): number {
  if (text.startsWith('"""', i)) return scanMultiline(text, i, '"');
  if (text.startsWith("'''", i)) return scanMultiline(text, i, "'");
  const c = text[i];
  if (c === '"') return scanBasic(text, i);
  if (c === "'") return scanLiteral(text, i);
  if (c === '[' || c === '{') return scanNested(text, i);
  let j = i;
  while (j < text.length && text[j] !== '\n' && text[j] !== '#') j++;
  while (j > i && /[ \t\r]/.test(text[j - 1]!)) j--;
  return j;
}

function scanMultiline(text: string, i: number, quote: '"' | "'"): number {
  const delimiter = quote.repeat(3);
  let j = i + 3;
  while (j < text.length) {
    if (quote === '"' && text[j] === '\\') {
      j += 2;
    } else if (text.startsWith(delimiter, j)) {
      j += 3;
      // Up to two quotes may sit right before the closing delimiter: `"""a""""`.
      for (let extra = 0; extra < 2 && text[j] === quote; extra++) j++;
      return j;
    } else {
      j++;
    }
  }
  return text.length;
}

function scanBasic(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else if (c === '\n') return j;
    else j++;
  }
  return text.length;
}

function scanLiteral(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (c === "'") return j + 1;
    if (c === '\n') return j;
    j++;
  }
  return text.length;
}

function scanNested(text: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '"' || c === "'") {
      j = text.startsWith(c.repeat(3), j) ? scanMultiline(text, j, c) : c === '"' ? scanBasic(text, j) : scanLiteral(text, j);
    } else if (c === '#') {
      while (j < text.length && text[j] !== '\n') j++;
    } else if (c === '[' || c === '{') {
      depth++;
      j++;
    } else if (c === ']' || c === '}') {
      depth--;
      j++;
      if (depth === 0) return j;
    } else {
      j++;
    }
  }
  return text.length;
}

const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\u001b', '"': '"', '\\': '\\' };

/** The value of a single-line basic string's body (between the quotes). */
function decodeBasic(body: string): string {
  return body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g, (_m, esc: string) => {
    if (esc.length > 1) return String.fromCodePoint(Number.parseInt(esc.slice(1), 16));
    return SIMPLE_ESCAPES[esc] ?? esc;
  });
}
