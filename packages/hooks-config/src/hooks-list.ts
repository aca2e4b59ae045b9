import { LIMITS, sanitizeLine, previewCommand, type HookEventName, type HookProtocol, type HookSource } from '@codewhale/hooks-payloads';
import { summarizeCondition, type HookCondition } from '@codewhale/hooks-conditions';
import type { ProjectApproval, ProjectApprovalState } from './project-approval.js';
import type { ConfigProblem, HookSet, TimeoutSource } from './types.js';

/** One row of `hooks list`: only display-safe values (no raw command, env value or path). */
export interface HooksListHook {
  readonly index: number;
  /** The sanitized, bounded name, or `null` when unnamed. */
  readonly name: string | null;
  readonly label: string;
  readonly event: HookEventName;
  readonly source: HookSource;
  /** Whether the hook really runs in the background (never for `shell_env`). */
  readonly background: boolean;
  readonly effectiveTimeoutSecs: number;
  readonly timeoutSource: TimeoutSource;
  readonly timeoutOverridden: boolean;
  /** The configured value was above the 2,147,483 s maximum and was clamped (D20). */
  readonly timeoutClamped: boolean;
  readonly continueOnError: boolean;
  readonly condition: HookCondition | null;
  /** `summarizeCondition`, or `null` when there is no condition. */
  readonly conditionSummary: string | null;
  /** Sanitized single line, at most 60 code points. */
  readonly commandPreview: string;
  /** How the hook talks to its command (`codewhale`, or `claude-code` for a peer script). */
  readonly protocol: HookProtocol;
}

/** The project part of `hooks list`. */
export interface HooksListProject {
  readonly state: ProjectApprovalState;
  readonly trusted: boolean;
  /** SHA-256 of the project file as it is now (what `hooks approve` takes). */
  readonly digest: string | null;
  /** Trusted and approved: the project hooks are part of the set. */
  readonly loaded: boolean;
  /** How many named or pinned scripts differ from their pins. */
  readonly changedScripts: number;
}

/** The `hooks list` model every surface renders: as text (TUI, CLI) or JSON (`--json`, `GET /v1/hooks`). */
export interface HooksList {
  readonly configured: boolean;
  readonly enabled: boolean;
  readonly defaultTimeoutSecs: number | null;
  readonly hooks: readonly HooksListHook[];
  readonly problems: readonly ConfigProblem[];
  readonly project: HooksListProject | null;
}

/** Build the `hooks list` model from a loaded set and, when there is a workspace, its approval verdict. */
export function buildHooksList(set: HookSet, project: ProjectApproval | null = null): HooksList {
  return {
    configured: set.configured,
    enabled: set.enabled,
    defaultTimeoutSecs: set.defaultTimeoutSecs,
    hooks: set.hooks.map((h) => {
      const configured = h.timeoutSource === 'override' ? (set.defaultTimeoutSecs ?? h.timeoutSecs) : h.timeoutSecs;
      return {
        index: h.index,
        name: h.name === null ? null : sanitizeLine(h.name, LIMITS.labelMaxChars).text,
        label: h.label,
        event: h.event,
        source: h.source,
        background: h.runsInBackground,
        effectiveTimeoutSecs: h.effectiveTimeoutSecs,
        timeoutSource: h.timeoutSource,
        timeoutOverridden: h.timeoutSource === 'override',
        timeoutClamped: configured > LIMITS.maxTimeoutSecs,
        continueOnError: h.continueOnError,
        condition: h.condition,
        conditionSummary: h.condition ? summarizeCondition(h.condition) : null,
        commandPreview: previewCommand(h.command),
        protocol: h.protocol,
      };
    }),
    problems: set.problems,
    project: project
      ? {
          state: project.state,
          trusted: project.trusted,
          digest: project.digest,
          // An approved file that cannot be read or parsed is skipped: it is not loaded.
          loaded: project.loadable && !set.problems.some((p) => p.source === 'project' && (p.code === 'toml_syntax' || p.code === 'project_file_unreadable' || p.code === 'wrong_shape')),
          changedScripts: project.changedScripts.length,
        }
      : null,
  };
}
