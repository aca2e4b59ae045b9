import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_CATALOGUE, HOOK_EVENT_NAMES, STEERING_EVENTS } from '@codewhale/hooks-payloads';
import { renderHookEvents } from './render-hook-events.js';

describe('renderHookEvents (reference §18.4)', () => {
  const text = renderHookEvents();
  const lines = text.split('\n');

  it('starts with the header', () => {
    expect(lines[0]).toBe('Available hook events (use one of these as `event = "..."` in your `[[hooks.hooks]]` entry).');
  });

  it('events_subcommand_lists_every_event_variant_in_documented_order, with catalogue descriptions', () => {
    const eventLines = lines.filter((l) => l.startsWith('- `'));
    expect(eventLines).toEqual(HOOK_EVENT_CATALOGUE.map((e) => `- \`${e.name}\` \u2014 ${e.description}`));
    expect(eventLines.map((l) => l.slice(3, l.indexOf('`', 3)))).toEqual([...HOOK_EVENT_NAMES]);
  });

  it('events_listing_states_scope_and_the_steering_allowlist', () => {
    expect(STEERING_EVENTS).toEqual(['message_submit', 'tool_call_before', 'shell_env']);
    expect(text).toContain('Only `message_submit`, `tool_call_before`, and `shell_env` can steer a turn.');
    expect(text).toContain('can allow/deny/ask');
    expect(text).toContain('can have any external side effect');
    expect(text).toContain('Observer-only means the *result* is ignored \u2014 the command still runs and can have any external side effect.');
    expect(lines[lines.length - 1]).toBe('Full guide: docs/hooks-guide.md');
    expect(text).not.toContain('read-only observer');
    expect(text).toContain('`codewhale exec` fires `tool_call_before` and `shell_env` only when run with `--hooks`');
    expect(text).toContain('Runtime API threads fire `tool_call_before`, `shell_env`, `tool_call_after` and `on_error`');
    expect(text).not.toMatch(/TUI[- ]only/i);
  });
});
