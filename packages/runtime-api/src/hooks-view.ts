import { buildHooksList, hooksListToJson } from '@codewhale/hooks-config';
import type { HookEventName } from '@codewhale/hooks-payloads';
import { loadHookConfiguration, type CodewhalePaths, type HookConfiguration } from '@codewhale/hooks-supervisor';
import { PROFILE_EVENTS } from '@codewhale/engine/internal';
import { displaySafeJson, redact } from './redact.js';

/** The surfaces in the order `fires_on` lists them. */
const FIRING_SURFACES = ['tui', 'exec', 'runtime'] as const;

/** Where an event fires: the TUI fires all 15, `exec --hooks` two, Runtime API threads four. */
export function firesOn(event: HookEventName): string[] {
  return FIRING_SURFACES.filter((s) => PROFILE_EVENTS[s].has(event));
}

/**
 * `GET /v1/hooks`: the shared `hooks list` model as JSON for a workspace (global plus its
 * trusted-and-approved project hooks), each hook with the surfaces it fires on and whether it
 * fires in this server's threads. Display-safe only: never raw commands, env values or paths.
 */
export function hooksView(paths: CodewhalePaths, workspace: string, live?: HookConfiguration | null): Record<string, unknown> {
  const r = loadHookConfiguration({ paths, workspace });
  if (live) {
    // A thread's live session: the hooks it really runs, and whether the files say otherwise now.
    const differs = !r.ok || r.value.digest !== live.digest;
    return {
      ...listOf(live),
      source: 'session',
      pending_reload: differs,
      ...(differs
        ? {
            pending_reload_note: r.ok
              ? "the hook files changed since this thread's session loaded them; the session runs the hooks listed here until it is reloaded (the server re-opens a thread's session on restart)"
              : 'the hook files cannot be parsed now; the session keeps running the hooks listed here',
          }
        : {}),
    };
  }
  if (!r.ok) {
    // The user's config cannot be parsed: say so without echoing its contents or its path.
    return {
      configured: true,
      enabled: false,
      default_timeout_secs: null,
      hooks: [],
      problems: r.issues.map((i) => ({
        severity: 'error',
        code: 'config_unreadable',
        event: null,
        label: null,
        detail: 'the user config could not be parsed; run `codewhale hooks validate`',
        summary: i.summary.replace(/\/[^\s`'"]+/g, '<path>'),
        source: 'global',
        line: null,
      })),
      project: null,
      runtime_events: [...PROFILE_EVENTS.runtime],
      hook_set_digest: null,
      source: 'disk',
      pending_reload: false,
    };
  }
  return { ...listOf(r.value), source: 'disk', pending_reload: false };
}

function listOf(config: HookConfiguration): Record<string, unknown> {
  const json = hooksListToJson(buildHooksList(config.loaded.set, config.loaded.project));
  const hooks = (json.hooks as Record<string, unknown>[]).map((h) => {
    const event = h.event as HookEventName;
    // A preview of a command that carries a credential (`--password=…`, a URL password, a token) shows it redacted.
    const preview = typeof h.command_preview === 'string' ? { command_preview: redact(h.command_preview, []) } : {};
    return { ...h, ...preview, fires_on: firesOn(event), fires_on_runtime: PROFILE_EVENTS.runtime.has(event) };
  });
  // Names, previews and problems come from the user's files: no invisible formatting character is shown raw.
  return displaySafeJson({ ...json, hooks, runtime_events: [...PROFILE_EVENTS.runtime], hook_set_digest: config.digest }) as Record<string, unknown>;
}
