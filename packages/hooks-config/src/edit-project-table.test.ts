import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editProjectTable } from './edit-project-table.js';
import { parseToml } from './parse-toml.js';
import { formatTomlString } from './toml-format.js';

const D = 'ab'.repeat(32);
const WS = '/w/p';

const edit = (text: string, change: Parameters<typeof editProjectTable>[2], ws = WS): string => {
  const r = editProjectTable(text, ws, change);
  if (!r.ok) throw new Error(r.issues[0]!.message);
  return r.value;
};
const doc = (text: string) => {
  const r = parseToml(text, 'c.toml');
  if (!r.ok) throw new Error(r.issues[0]!.summary);
  return r.value;
};

describe('editProjectTable (D10)', () => {
  it('appends a missing table at the end, separated by a blank line', () => {
    expect(edit('model = "x" # keep\n', { set: { trust_level: 'trusted' } })).toBe('model = "x" # keep\n\n[projects."/w/p"]\ntrust_level = "trusted"\n');
    expect(edit('', { set: { hooks_revoked: true } })).toBe('[projects."/w/p"]\nhooks_revoked = true\n');
    expect(edit('a = 1', { set: { hooks_revoked: true } })).toBe('a = 1\n\n[projects."/w/p"]\nhooks_revoked = true\n');
  });

  it('changes only the value of an existing key, keeping its trailing comment', () => {
    const text = '# mine\n[projects."/w/p"] # header comment\ntrust_level = "untrusted"   # my note\nother = 1\n\n[x]\ny = 2\n';
    expect(edit(text, { set: { trust_level: 'trusted' } })).toBe('# mine\n[projects."/w/p"] # header comment\ntrust_level = "trusted"   # my note\nother = 1\n\n[x]\ny = 2\n');
  });

  it('adds a new key after the table\u2019s last key, not after the comments of the next table', () => {
    const text = '[projects."/w/p"]\ntrust_level = "trusted"\n\n# about x\n[x]\ny = 2\n';
    expect(edit(text, { set: { hooks_approved_sha256: D } })).toBe(`[projects."/w/p"]\ntrust_level = "trusted"\nhooks_approved_sha256 = "${D}"\n\n# about x\n[x]\ny = 2\n`);
  });

  it('finds the table under any header spelling', () => {
    for (const header of ["[projects.'/w/p']", '[ projects . "/w/p" ]', '[projects."\\u002Fw/p"]', '["projects"."/w/p"]']) {
      const out = edit(`${header}\nnote = "n"\n`, { set: { trust_level: 'trusted' } });
      expect(out).toBe(`${header}\nnote = "n"\ntrust_level = "trusted"\n`);
    }
  });

  it('escapes paths with quotes, backslashes and control characters', () => {
    const ws = 'C:\\Users\\a "b"\n\u0001';
    const out = edit('', { set: { trust_level: 'trusted' } }, ws);
    expect(out).toBe(`[projects.${formatTomlString(ws)}]\ntrust_level = "trusted"\n`);
    expect((doc(out)['projects'] as Record<string, Record<string, unknown>>)[ws]!['trust_level']).toBe('trusted');
  });

  it('removes keys (including dotted forms) and replaces an inline table of pins', () => {
    const text = `[projects."/w/p"]\ntrust_level = "trusted"\nhooks_approved_sha256 = "${D}" # c\nhooks_approved_scripts.a = "absent"\nhooks_approved_scripts.b = "absent"\nnote = 1\n`;
    expect(edit(text, { remove: ['hooks_approved_sha256', 'hooks_approved_scripts'] })).toBe('[projects."/w/p"]\ntrust_level = "trusted"\nnote = 1\n');
    expect(edit(text, { set: { hooks_approved_scripts: { 'x y.sh': D } } })).toBe(
      `[projects."/w/p"]\ntrust_level = "trusted"\nhooks_approved_sha256 = "${D}" # c\nnote = 1\nhooks_approved_scripts = { "x y.sh" = "${D}" }\n`,
    );
  });

  it('keeps CRLF line endings and handles a table at the end of a file without a final newline', () => {
    expect(edit('a = 1\r\n[projects."/w/p"]\r\nnote = 1', { set: { hooks_revoked: true } })).toBe('a = 1\r\n[projects."/w/p"]\r\nnote = 1\r\nhooks_revoked = true\r\n');
    expect(edit('[projects."/w/p"]', { set: { hooks_revoked: true } })).toBe('[projects."/w/p"]\nhooks_revoked = true\n');
  });

  it('removing from a missing table changes nothing', () => {
    expect(edit('a = 1\n', { remove: ['hooks_revoked'] })).toBe('a = 1\n');
  });

  it('refuses keys it does not own', () => {
    const r = editProjectTable('', WS, { set: { model: 'x' } });
    expect(r.ok ? null : r.issues[0]!.code).toBe('not_owned');
  });

  it('refuses an unparseable config', () => {
    const r = editProjectTable('a = \n', WS, { set: { trust_level: 'trusted' } });
    expect(r.ok ? null : r.issues[0]!.code).toBe('config_unparseable');
  });

  it('refuses a layout it cannot edit safely instead of corrupting the file', () => {
    const dotted = editProjectTable('projects."/w/p".trust_level = "x"\n', WS, { set: { trust_level: 'trusted' } });
    expect(dotted.ok ? null : dotted.issues[0]!.code).toBe('unsupported_layout');
    const inline = editProjectTable('projects = { other = 1 }\n', WS, { set: { trust_level: 'trusted' } });
    expect(inline.ok ? null : inline.issues[0]!.code).toBe('verification_failed');
    const subtable = editProjectTable('[projects."/w/p"]\n[projects."/w/p".hooks_approved_scripts]\na = "absent"\n', WS, {
      set: { hooks_approved_scripts: { b: 'absent' } },
    });
    expect(subtable.ok ? null : subtable.issues[0]!.code).toBe('verification_failed');
  });
});

// --- generated configs -------------------------------------------------------------

const commentText = fc.string({ unit: fc.constantFrom('a', ' ', '[', ']', '"', "'", '#', '=', 'é', '🐳', '\\'), maxLength: 20 });
const scalar = fc.oneof(
  fc.string({ maxLength: 12 }).map(formatTomlString),
  fc.integer().map(String),
  fc.boolean().map(String),
  fc.constant('\'lit [projects."/w/p"]\''),
  fc.constant('"""\n[projects."/w/p"]\ntrust_level = "evil"\n"""'),
  fc.constant("'''\n[[hooks.hooks]]\n'''"),
  fc.constant('[\n  1, # c ]\n  [2, 3],\n  "]",\n]'),
  fc.constant('{ a = 1, b = "[x]" }'),
);
const bodyLine = (i: number) =>
  fc.oneof(
    commentText.map((c) => `# ${c}`),
    fc.constant(''),
    fc.tuple(scalar, fc.option(commentText, { nil: undefined })).map(([v, c]) => `key${i} = ${v}${c === undefined ? '' : ` # ${c}`}`),
  );
const body = fc.integer({ min: 0, max: 5 }).chain((n) => (n === 0 ? fc.constant([] as string[]) : fc.tuple(...Array.from({ length: n }, (_, i) => bodyLine(i)))));
const targetHeader = fc.constantFrom('[projects."/w/p"]', "[projects.'/w/p']", '[ projects . "/w/p" ]');
const configCase = fc
  .record({
    root: body,
    tables: fc.array(body, { maxLength: 3 }),
    target: fc.option(fc.tuple(targetHeader, body, fc.boolean()), { nil: undefined }),
    at: fc.nat(),
    crlf: fc.boolean(),
  })
  .map(({ root, tables, target, at, crlf }) => {
    const sections = tables.map((b, i) => [i % 2 ? `[projects."/other${i}"]` : `[t${i}]`, ...(i % 2 ? ['trust_level = "trusted"'] : []), ...b]);
    if (target) sections.splice(at % (sections.length + 1), 0, [target[0], ...target[1], ...(target[2] ? ['trust_level = "old" # keep me'] : [])]);
    const nl = crlf ? '\r\n' : '\n';
    return { text: [...root, ...sections.flat()].join(nl) + nl, hasTarget: target !== undefined, oldTrust: target?.[2] === true };
  });
const config = configCase.map((c) => c.text);
const change = fc.record(
  {
    trust_level: fc.constant('trusted'),
    hooks_approved_sha256: fc.constant(D),
    hooks_approved_scripts: fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom(D, 'absent'), { maxKeys: 3 }),
    hooks_revoked: fc.boolean(),
  },
  { requiredKeys: [] },
);
const OWNED_LINE = /^[ \t]*(trust_level|hooks_approved_sha256|hooks_approved_scripts|hooks_revoked)[ \t]*=.*$/;
const ownedLinesRemoved = (text: string) =>
  text
    .split(/\r?\n/)
    .filter((l) => !OWNED_LINE.test(l))
    .join('\n');
const comments = (text: string) => text.split(/\r?\n/).filter((l) => /^\s*#/.test(l));

describe('properties', () => {
  it('preserves every other byte: only owned lines (and a new table) differ', () => {
    fc.assert(
      fc.property(configCase, change, ({ text, hasTarget }, set) => {
        const out = edit(text, { set });
        if (Object.keys(set).length === 0) {
          expect(out).toBe(text);
          return;
        }
        const table = (doc(out)['projects'] as Record<string, Record<string, unknown>>)[WS]!;
        for (const [k, v] of Object.entries(set)) expect(table[k]).toEqual(v);
        if (!hasTarget) {
          expect(out.startsWith(text)).toBe(true);
        } else {
          expect(ownedLinesRemoved(out)).toBe(ownedLinesRemoved(text));
        }
        expect(comments(out)).toEqual(comments(text));
        const before = doc(text)['projects'] as Record<string, unknown> | undefined;
        const after = doc(out)['projects'] as Record<string, unknown>;
        for (const key of Object.keys(before ?? {})) if (key !== WS) expect(after[key]).toEqual(before![key]);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(config, change, fc.subarray(['trust_level', 'hooks_revoked']), (text, set, remove) => {
        const once = edit(text, { set, remove });
        expect(edit(once, { set, remove })).toBe(once);
      }),
      { numRuns: 300 },
    );
  });

  it('setting then removing keys the table did not have restores the text exactly', () => {
    fc.assert(
      fc.property(configCase, change, ({ text, hasTarget, oldTrust }, set) => {
        fc.pre(hasTarget && !oldTrust);
        expect(edit(edit(text, { set }), { remove: Object.keys(set) })).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('writes any workspace path so that it reads back exactly', () => {
    const pathChar = fc.constantFrom('/', 'a', '"', '\\', "'", '\u0001', '\n', '\t', ' ', 'é', '🐳', '[', ']', '#', '=', '.', '\u007f');
    fc.assert(
      fc.property(fc.string({ unit: pathChar, maxLength: 16 }), config, (ws, text) => {
        const out = edit(text, { set: { trust_level: 'trusted' } }, ws);
        const projects = doc(out)['projects'] as Record<string, Record<string, unknown>>;
        expect(projects[ws]!['trust_level']).toBe('trusted');
        expect(edit(out, { set: { trust_level: 'trusted' } }, ws)).toBe(out);
      }),
      { numRuns: 200 },
    );
  });
});
