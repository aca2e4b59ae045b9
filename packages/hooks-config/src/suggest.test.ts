import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_NAMES } from '@codewhale/hooks-payloads';
import { CONDITION_TYPES, TOOL_CATEGORIES } from '@codewhale/hooks-conditions';
import { CONDITION_TYPE_ALIASES, editDistance, FOREIGN_EVENT_ALIASES, suggest, toSnakeCase } from './suggest.js';
import { HOOK_ENTRY_KEYS, HOOKS_SETTING_KEYS } from './schema.js';
import { MODE_SPELLINGS } from './parse-condition.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['conditon', 'condition', 1],
    ['paln', 'plan', 1],
    ['ab', 'ba', 1],
    ['🐳a', 'a🐳', 1],
  ])('%j → %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});

describe('toSnakeCase', () => {
  it.each([
    ['PreToolUse', 'pre_tool_use'],
    ['toolCallBefore', 'tool_call_before'],
    ['tool-call-before', 'tool_call_before'],
    ['TOOL_CALL_BEFORE', 'tool_call_before'],
    ['HTTPServer', 'http_server'],
  ])('%s → %s', (input, out) => expect(toSnakeCase(input)).toBe(out));
});

describe('did you mean', () => {
  const event = (s: string) => suggest(s, HOOK_EVENT_NAMES, { aliases: FOREIGN_EVENT_ALIASES });
  it.each([
    ['PreToolUse', 'tool_call_before'],
    ['toolCallBefore', 'tool_call_before'],
    ['ToolCallBefore', 'tool_call_before'],
    ['tool-call-before', 'tool_call_before'],
    ['before_tool_call', 'tool_call_before'],
    ['PostToolUse', 'tool_call_after'],
    ['UserPromptSubmit', 'message_submit'],
    ['SessionStart', 'session_start'],
    ['sesion_start', 'session_start'],
    ['shellenv', 'shell_env'],
    ['Stop', 'turn_end'],
    ['SubagentStop', 'subagent_complete'],
    ['turn_ned', 'turn_end'],
  ])('event %s → %s', (input, out) => expect(event(input)).toBe(out));

  it('offers nothing for an unrelated name or an exact one', () => {
    expect(event('frobnicate')).toBeNull();
    expect(event('session_start')).toBeNull();
    expect(event('')).toBeNull();
  });

  it.each([
    ['conditon', 'condition'],
    ['comand', 'command'],
    ['timeout', 'timeout_secs'],
    ['continue_on_eror', 'continue_on_error'],
    ['backgroud', 'background'],
    ['Event', 'event'],
  ])('entry key %s → %s', (input, out) => expect(suggest(input, HOOK_ENTRY_KEYS)).toBe(out));

  it.each([
    ['enabeld', 'enabled'],
    ['default_timeout', 'default_timeout_secs'],
    ['workingDir', 'working_dir'],
  ])('[hooks] key %s → %s', (input, out) => expect(suggest(input, HOOKS_SETTING_KEYS)).toBe(out));

  it.each([
    ['toolname', 'tool_name'],
    ['toolName', 'tool_name'],
    ['exitcode', 'exit_code'],
    ['and', 'all'],
    ['or', 'any'],
    ['alway', 'always'],
  ])('condition type %s → %s', (input, out) => expect(suggest(input, CONDITION_TYPES, { aliases: CONDITION_TYPE_ALIASES })).toBe(out));

  it.each([
    ['shel', 'shell'],
    ['file-write', 'file_write'],
    ['fileWrite', 'file_write'],
    ['saf', 'safe'],
  ])('category %s → %s', (input, out) => expect(suggest(input, TOOL_CATEGORIES)).toBe(out));

  it.each([
    ['paln', 'plan'],
    ['planning', 'plan'],
    ['opreate', 'operate'],
    ['wrok', 'work'],
  ])('mode %s → %s', (input, out) => expect(suggest(input, MODE_SPELLINGS)).toBe(out));
});

describe('properties', () => {
  it('edit distance is a symmetric premetric: 0 exactly for equal strings', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const d = editDistance(a, b);
        expect(editDistance(b, a)).toBe(d);
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(Array.from(a).length, Array.from(b).length));
      }),
    );
  });

  it('a suggestion is always one of the candidates, and never the input itself', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        const out = suggest(s, HOOK_EVENT_NAMES, { aliases: FOREIGN_EVENT_ALIASES });
        if (out !== null) {
          expect(HOOK_EVENT_NAMES).toContain(out);
          expect(out).not.toBe(s);
        }
      }),
    );
  });
});
