/** Where a JSON text first breaks the grammar, and what is wrong there. */
export interface JsonSyntaxError {
  /** 0-based offset (UTF-16 units) of the offending character, or the text's length at its end. */
  readonly offset: number;
  /** 1-based line and column of `offset` (lines end at `\n`). */
  readonly line: number;
  readonly column: number;
  /** One line, e.g. "a trailing comma is not allowed in JSON". */
  readonly message: string;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const LITERALS = ['true', 'false', 'null'] as const;

/**
 * The first syntax error in `text` as strict JSON (RFC 8259, what `JSON.parse` accepts), or
 * `null` when it is valid. `JSON.parse` names no line (and, in newer V8, often no position), so
 * this scanner finds the place to show a user, and says what the usual culprits are: a comment,
 * a trailing comma, a single-quoted string. Iterative, so deep nesting cannot overflow the stack.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  const n = text.length;
  let i = 0;
  const stack: ('{' | '[')[] = [];
  let lastComma = -1;
  const at = (offset: number, message: string): JsonSyntaxError => {
    let line = 1;
    let start = 0;
    for (let k = 0; k < offset; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        start = k + 1;
      }
    }
    return { offset, line, column: offset - start + 1, message };
  };
  const found = (): string => (i >= n ? 'the end of the file' : `\`${text[i] === '`' ? "'" : text[i]}\``);
  const skipSpace = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  /** A string starting at `i` (a `"`); leaves `i` after it. */
  const string = (): JsonSyntaxError | null => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) return at(i, 'a `\\u` escape needs four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return at(i, 'an invalid escape in a string');
      } else if (c < 0x20) return at(i, 'a control character (such as a line break) inside a string; write it as an escape');
      else i++;
    }
    return at(n, 'a string is not closed');
  };
  const unexpected = (what: string): JsonSyntaxError => {
    if (text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) return at(i, 'comments are not allowed in JSON');
    if (text[i] === "'") return at(i, 'strings must be in double quotes');
    return at(i, `${what}, found ${found()}`);
  };

  let state: 'value' | 'firstValue' | 'key' | 'firstKey' | 'after' = 'value';
  for (;;) {
    skipSpace();
    if (state === 'value' || state === 'firstValue') {
      const c = text[i];
      if (state === 'firstValue' && c === ']') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      if (c === '{') {
        stack.push('{');
        i++;
        state = 'firstKey';
        continue;
      }
      if (c === '[') {
        stack.push('[');
        i++;
        state = 'firstValue';
        continue;
      }
      if (c === '"') {
        const e = string();
        if (e) return e;
        state = 'after';
        continue;
      }
      if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (!m) return at(i, 'an invalid number');
        i += m[0].length;
        state = 'after';
        continue;
      }
      const literal = LITERALS.find((l) => text.startsWith(l, i));
      if (literal) {
        i += literal.length;
        state = 'after';
        continue;
      }
      if (c === ']' && lastComma >= 0 && text.slice(lastComma + 1, i).trim() === '') return at(lastComma, 'a trailing comma is not allowed in JSON');
      if (i >= n) return at(n, stack.length ? 'the file ends inside an unclosed `{` or `[`' : 'the file is empty');
      return unexpected('expected a value');
    }
    if (state === 'key' || state === 'firstKey') {
      if (state === 'firstKey' && text[i] === '}') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      if (text[i] !== '"') {
        if (text[i] === '}' && state === 'key') return at(lastComma, 'a trailing comma is not allowed in JSON');
        if (i >= n) return at(n, 'the file ends inside an unclosed `{`');
        return unexpected('expected a property name in double quotes');
      }
      const e = string();
      if (e) return e;
      skipSpace();
      if (text[i] !== ':') return unexpected('expected `:` after the property name');
      i++;
      state = 'value';
      continue;
    }
    // After a value: the end of the document, or `,` / the close of the container.
    const top = stack[stack.length - 1];
    if (top === undefined) return i >= n ? null : unexpected('expected the end of the file after the JSON value');
    const close = top === '{' ? '}' : ']';
    if (text[i] === ',') {
      lastComma = i;
      i++;
      state = top === '{' ? 'key' : 'value';
      continue;
    }
    if (text[i] === close) {
      stack.pop();
      i++;
      continue;
    }
    if (i >= n) return at(n, `the file ends inside an unclosed \`${top}\``);
    return unexpected(`expected \`,\` or \`${close}\``);
  }
}
