import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInteractive } from './main.js';

describe('isInteractive (which argv opens the interactive UI)', () => {
  it.each([
    [[], true],
    [['--auto'], true],
    [['--replay', 's.jsonl', 'go'], true],
    [['--workspace=/x'], true],
    [['-w', '/x'], true],
    [['--', 'fix it'], true],
    [['fix the failing test'], true],
    [['exec', 'hi there'], false],
    [['hooks'], false],
    [['nonsense'], false],
    [['--version'], false],
    [['-V'], false],
    [['--help'], false],
    [['help'], false],
  ])('%j → %s', (argv, expected) => {
    expect(isInteractive(argv as string[])).toBe(expected);
  });

  it('property: a subcommand first never opens the UI', () => {
    fc.assert(
      fc.property(fc.constantFrom('exec', 'hooks', 'trust', 'untrust', 'help'), fc.array(fc.string(), { maxLength: 4 }), (cmd, rest) => {
        expect(isInteractive([cmd, ...rest])).toBe(false);
      }),
    );
  });
});
