import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanTomlLayout } from './toml-layout.js';
import { tomlArrayEntryLines, tomlKeyLine } from './toml-key-line.js';

const TEXT = [
  'provider = "openai"', // 1
  'retry.enabled = true', // 2
  '', // 3
  '[retry]', // 4
  '# a comment', // 5
  'max_retires = 3', // 6
  '', // 7
  '[providers.openai]', // 8
  'model = "m"', // 9
  '[tui]', // 10
  '[[rules]]', // 11
  'tool = "bash"', // 12
  '[[rules]]', // 13
  'tool = "read_file"', // 14
].join('\n');

describe('tomlKeyLine', () => {
  const layout = scanTomlLayout(TEXT);
  it('finds root keys, dotted keys, keys under a header and sub-table headers', () => {
    expect(tomlKeyLine(layout, [], 'provider')).toBe(1);
    expect(tomlKeyLine(layout, ['retry'], 'enabled')).toBe(2);
    expect(tomlKeyLine(layout, ['retry'], 'max_retires')).toBe(6);
    expect(tomlKeyLine(layout, ['providers', 'openai'], 'model')).toBe(9);
    expect(tomlKeyLine(layout, ['providers'], 'openai')).toBe(9);
    expect(tomlKeyLine(layout, [], 'tui')).toBe(10);
  });
  it('falls back to the table header, then null', () => {
    expect(tomlKeyLine(layout, ['tui'], 'toast_ms')).toBe(10);
    expect(tomlKeyLine(layout, ['nowhere'], 'x')).toBeNull();
  });
  it('lists [[array]] header lines only when they account for every entry', () => {
    expect(tomlArrayEntryLines(layout, ['rules'], 2)).toEqual([11, 13]);
    expect(tomlArrayEntryLines(layout, ['rules'], 3)).toEqual([null, null, null]);
  });

  describe('properties', () => {
    it('the line of every written root key is the line it was written on', () => {
      const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
      fc.assert(
        fc.property(fc.uniqueArray(key, { minLength: 1, maxLength: 8 }), fc.array(fc.constantFrom('', '# note'), { maxLength: 8 }), (keys, fillers) => {
          const lines: string[] = [];
          const at = new Map<string, number>();
          keys.forEach((k, i) => {
            if (fillers[i] !== undefined) lines.push(fillers[i]!);
            lines.push(`${k} = ${i}`);
            at.set(k, lines.length);
          });
          const l = scanTomlLayout(lines.join('\n'));
          for (const k of keys) expect(tomlKeyLine(l, [], k)).toBe(at.get(k));
        }),
      );
    });
  });
});
