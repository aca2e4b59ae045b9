import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { toolCategory, SHELL_TOOL_ALIASES } from './tool-category.js';
import { TOOL_CATEGORIES } from './condition.js';

describe('toolCategory (reference §1)', () => {
  it.each([
    ['read', 'safe'],
    ['todo_write', 'safe'],
    ['write', 'file_write'],
    ['edit', 'file_write'],
    ['apply_patch', 'file_write'],
    ['bash', 'shell'],
    ['Bash', 'shell'],
    ['exec_shell', 'shell'],
    ['Run', 'shell'],
    ['run', 'shell'],
    ['agent', 'other'],
    ['request_user_input', 'other'],
    ['tool_search', 'other'],
    ['web.run', 'other'],
    ['mcp__github__create_issue', 'other'],
    ['BASH', 'other'],
    ['', 'other'],
  ])('%s → %s', (name, category) => {
    expect(toolCategory(name)).toBe(category);
  });

  it('File: read / list / search actions are safe; any other action, none, or unparseable args are file_write', () => {
    for (const action of ['read', 'list', 'search_name', 'search_content']) {
      expect(toolCategory('File', { action, path: 'x' })).toBe('safe');
      expect(toolCategory('File', JSON.stringify({ action }))).toBe('safe');
    }
    for (const input of [{ action: 'write' }, { action: 'edit' }, { action: 'patch' }, { action: 'delete' }, { action: 'READ' }, {}, { action: 7 }, null, [], 'not json', '["read"]']) {
      expect(toolCategory('File', input)).toBe('file_write');
    }
    expect(toolCategory('File')).toBe('file_write');
  });

  it('Git: status / diff / log / show / blame are safe; anything else is other', () => {
    for (const action of ['status', 'diff', 'log', 'show', 'blame']) expect(toolCategory('Git', { action })).toBe('safe');
    for (const input of [{ action: 'commit' }, { action: 'push' }, {}, 'garbage', undefined]) expect(toolCategory('Git', input)).toBe('other');
  });

  it('lists the three shell spellings that alias each other', () => {
    expect([...SHELL_TOOL_ALIASES]).toEqual(['bash', 'Bash', 'exec_shell']);
    for (const alias of SHELL_TOOL_ALIASES) expect(toolCategory(alias)).toBe('shell');
  });
});

describe('properties', () => {
  it('always answers one of the four categories, and the input only matters for File and Git', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.jsonValue(), (name, input) => {
        const c = toolCategory(name, input);
        expect(TOOL_CATEGORIES).toContain(c);
        if (name !== 'File' && name !== 'Git') expect(c).toBe(toolCategory(name));
      }),
      { numRuns: 200 },
    );
  });
});
