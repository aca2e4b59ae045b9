import { HOOK_EVENT_NAMES, LIMITS, sanitizeLine } from '@codewhale/hooks-payloads';
import { conditionToJson, type HookCondition } from '@codewhale/hooks-conditions';
import type { HooksList } from './hooks-list.js';

const bounded = (s: string): string => sanitizeLine(s, LIMITS.labelMaxChars).text;

/** The condition as JSON with operator-supplied strings sanitized and bounded like the summary. */
function safeConditionJson(condition: HookCondition): Record<string, unknown> {
  const json = conditionToJson(condition);
  const walk = (node: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(node).map(([k, v]) => [k, typeof v === 'string' ? bounded(v) : Array.isArray(v) ? v.map((c) => walk(c as Record<string, unknown>)) : v]));
  return walk(json);
}

/**
 * The `hooks list` model as JSON with snake_case keys (`hooks list --json`, `GET /v1/hooks`).
 * Never raw commands, env values, paths or file names.
 */
export function hooksListToJson(list: HooksList): Record<string, unknown> {
  return {
    configured: list.configured,
    enabled: list.enabled,
    default_timeout_secs: list.defaultTimeoutSecs,
    events: [...HOOK_EVENT_NAMES],
    hooks: list.hooks.map((h) => ({
      index: h.index,
      name: h.name,
      label: h.label,
      event: h.event,
      source: h.source,
      background: h.background,
      effective_timeout_secs: h.effectiveTimeoutSecs,
      timeout_source: h.timeoutSource,
      timeout_overridden: h.timeoutOverridden,
      timeout_clamped: h.timeoutClamped,
      continue_on_error: h.continueOnError,
      condition: h.condition ? safeConditionJson(h.condition) : null,
      condition_summary: h.conditionSummary,
      command_preview: h.commandPreview,
      protocol: h.protocol,
    })),
    problems: list.problems.map((p) => ({
      severity: p.severity,
      code: p.code,
      event: p.event,
      label: p.label,
      detail: p.detail,
      summary: p.summary,
      source: p.source,
      line: p.line,
    })),
    project: list.project
      ? {
          file_present: list.project.state !== 'none',
          trusted: list.project.trusted,
          state: list.project.state,
          digest: list.project.digest,
          loaded: list.project.loaded,
          changed_scripts: list.project.changedScripts,
        }
      : null,
  };
}
