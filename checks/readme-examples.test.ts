import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readmeExamples, sameText } from './readme-examples.js';

const codeLine = fc.stringMatching(/^[a-z0-9 =;().'+]{0,30}$/);

describe('readmeExamples', () => {
  it('finds every ts block, in order, with its fence line, and nothing from other languages', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ lang: fc.constantFrom('ts', 'typescript', 'sh', 'toml', ''), lines: fc.array(codeLine, { maxLength: 4 }) }), { maxLength: 6 }), (specs) => {
        const md: string[] = ['# Title', ''];
        const expected: { line: number; code: string }[] = [];
        for (const s of specs) {
          md.push('Some prose.', '');
          if (s.lang === 'ts' || s.lang === 'typescript') expected.push({ line: md.length + 1, code: s.lines.join('\n') });
          md.push(`\`\`\`${s.lang}`, ...s.lines, '```', '');
        }
        const got = readmeExamples(md.join('\n'));
        expect(got.map((e) => ({ line: e.line, code: e.code }))).toEqual(expected);
      }),
    );
  });

  it('takes the output block that follows and the console.log expectations', () => {
    const md = ['```ts', 'console.log(1 + 1); // 2', "const a = 'x';", "console.log({ a }); // { a: 'x' }", '```', '', '```text output', '2', "{ a: 'x' }", '```'].join('\n');
    const [ex] = readmeExamples(md);
    expect(ex!.expectations).toEqual(['2', "{ a: 'x' }"]);
    expect(ex!.output).toBe("2\n{ a: 'x' }");
    expect(readmeExamples('```ts\nlet x = 1;\n```\n\n```\nnot output\n```')[0]!.output).toBeNull();
  });

  it('compares printed text with whitespace removed', () => {
    expect(sameText("{\n  a: 'x'\n}", "{ a: 'x' }")).toBe(true);
    expect(sameText('1', '2')).toBe(false);
  });
});
