import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOT_PATH_FILES, propertiesAfterSpread } from './hot-path-literals.js';

const root = new URL('..', import.meta.url).pathname;

describe('hot-path records are written out field by field', () => {
  it('finds a property after a spread, in any position and nesting, and nothing else', () => {
    const text = [
      'const a = { ...x };', // a spread alone
      'const b = { k: 1, ...x };', // properties before a spread
      'const c = { ...x, k: 1 };', // line 3
      'const d = f({ ...x, ...y });', // spreads only
      'const e = [{ n: { ...x,', //
      '  k: 1 } }];', // line 5 (the inner literal starts there)
    ].join('\n');
    expect(propertiesAfterSpread('t.ts', text)).toEqual([3, 5]);
  });

  it.each(HOT_PATH_FILES)('%s has none', (file) => {
    expect(propertiesAfterSpread(file, readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });
});
