import { HOOK_EVENT_CATALOGUE, STEERING_EVENTS } from '@codewhale/hooks-payloads';

const code = (s: string): string => `\`${s}\``;
const list = (items: readonly string[]): string => (items.length <= 2 ? items.map(code).join(' and ') : `${items.slice(0, -1).map(code).join(', ')}, and ${code(items[items.length - 1]!)}`);

/**
 * `hooks events` (reference §18.4, scope reworded to the contract): a header, the scope, one
 * line per event in documented order with its catalogue description, then the steering
 * allowlist, what observer-only means, and where the full contract lives.
 */
export function renderHookEvents(): string {
  const lines = [
    'Available hook events (use one of these as `event = "..."` in your `[[hooks.hooks]]` entry).',
    'Hooks fire in the interactive TUI. `codewhale exec` fires `tool_call_before` and `shell_env` only when run with `--hooks`; Runtime API threads fire `tool_call_before`, `shell_env`, `tool_call_after` and `on_error`. Other CLI subcommands, the app-server / ACP, and the internals of the workflow tool and sub-agents fire none.',
    '',
    ...HOOK_EVENT_CATALOGUE.map((e) => `- ${code(e.name)} \u2014 ${e.description}`),
    '',
    `Only ${list(STEERING_EVENTS)} can steer a turn.`,
    'Observer-only means the *result* is ignored \u2014 the command still runs and can have any external side effect.',
    'Full guide: docs/hooks-guide.md',
  ];
  return lines.join('\n');
}
