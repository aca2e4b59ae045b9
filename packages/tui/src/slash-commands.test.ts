import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completeSlash, parseSlash, SLASH_COMMANDS, splitArgs } from './slash-commands.js';

describe('slash commands', () => {
  it('parses commands, aliases and arguments', () => {
    expect(parseSlash('/hooks approve abc123')).toEqual({ kind: 'command', name: 'hooks', args: ['approve', 'abc123'], rest: 'approve abc123' });
    expect(parseSlash('/hook')).toMatchObject({ kind: 'command', name: 'hooks' });
    expect(parseSlash('/exit')).toMatchObject({ kind: 'command', name: 'quit' });
    expect(parseSlash('hello')).toEqual({ kind: 'not_command' });
    expect(parseSlash('//literal')).toEqual({ kind: 'not_command' });
  });

  it('suggests for an unknown command', () => {
    expect(parseSlash('/hoks')).toEqual({ kind: 'unknown', name: 'hoks', suggestion: 'hooks' });
  });

  it('splits quoted arguments', () => {
    expect(splitArgs(`test tool_call_before --input '{"command": "ls -la"}' ""`)).toEqual(['test', 'tool_call_before', '--input', '{"command": "ls -la"}', '']);
  });

  it('completes prefixes first, then subsequences; nothing after a space', () => {
    expect(completeSlash('/q').map((c) => c.name)).toEqual(['queue', 'quit']);
    expect(completeSlash('/').length).toBe(SLASH_COMMANDS.length);
    expect(completeSlash('/hooks ')).toEqual([]);
    expect(completeSlash('/qt').map((c) => c.name)).toEqual(['quit']);
  });

  it('property: every menu entry matches what was typed, and a full name lists itself first', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{0,6}$/), (typed) => {
        const menu = completeSlash(`/${typed}`);
        for (const c of menu) {
          let i = 0;
          for (const ch of c.name) if (i < typed.length && typed[i] === ch) i++;
          expect(i).toBe(typed.length);
        }
        const exact = SLASH_COMMANDS.find((c) => c.name === typed);
        if (exact) expect(menu[0]!.name).toBe(typed);
      }),
    );
  });

  it('property: splitArgs round-trips simple words', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { maxLength: 6 }), (words) => {
        expect(splitArgs(words.join('  '))).toEqual(words);
      }),
    );
  });
});
