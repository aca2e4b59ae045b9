import { describe, expect, it } from 'vitest';
import { scanTomlLayout } from './toml-layout.js';

describe('scanTomlLayout', () => {
  it('finds headers with decoded key paths and 1-based lines, under every spelling', () => {
    const text = ['# top', 'a = 1', '[projects."/a/b"]', "[projects.'/c d']", '[ projects . "e\\"f\\\\g" ] # comment', '[[hooks.hooks]]', '[["hooks".hooks]]', '[projects."\\u002Fx"]'].join('\n');
    const l = scanTomlLayout(text);
    expect(l.headers.map((h) => [h.kind, h.path, h.line])).toEqual([
      ['table', ['projects', '/a/b'], 3],
      ['table', ['projects', '/c d'], 4],
      ['table', ['projects', 'e"f\\g'], 5],
      ['array', ['hooks', 'hooks'], 6],
      ['array', ['hooks', 'hooks'], 7],
      ['table', ['projects', '/x'], 8],
    ]);
  });

  it('never takes a bracket inside a string or a multi-line array for a header', () => {
    const text = [
      'm = [',
      '  [1, 2],',
      '  "[fake]",',
      ']',
      's = """',
      '[projects."/in/string"]',
      '"""',
      "t = '''",
      '[[hooks.hooks]]',
      "'''",
      'u = "a # not a comment" # a comment',
      '[real]',
      'k = 1',
    ].join('\n');
    const l = scanTomlLayout(text);
    expect(l.headers.map((h) => h.path)).toEqual([['real']]);
    expect(l.entries.map((e) => [e.key, e.line, e.table])).toEqual([
      [['m'], 1, -1],
      [['s'], 5, -1],
      [['t'], 8, -1],
      [['u'], 11, -1],
      [['k'], 13, 0],
    ]);
    const u = l.entries[3]!;
    expect(text.slice(u.valueStart, u.valueEnd)).toBe('"a # not a comment"');
  });

  it('records value spans, dotted keys and CRLF files', () => {
    const text = '[t]\r\na.b = "x" # c\r\nc = 1979-05-27 07:32:00Z\r\n';
    const l = scanTomlLayout(text);
    expect(l.newline).toBe('\r\n');
    expect(l.entries.map((e) => [e.key, text.slice(e.valueStart, e.valueEnd)])).toEqual([
      [['a', 'b'], '"x"'],
      [['c'], '1979-05-27 07:32:00Z'],
    ]);
    expect(l.entries[0]!.end).toBe(text.indexOf('c ='));
  });

  it('handles a multi-line basic string ending in quotes', () => {
    const text = 'a = """x""""\nb = 2\n';
    const l = scanTomlLayout(text);
    expect(l.entries.map((e) => text.slice(e.valueStart, e.valueEnd))).toEqual(['"""x""""', '2']);
  });
});
