import type { HookEventName, HookProtocol, HookSource } from '@codewhale/hooks-payloads';
import type { HookCondition } from '@codewhale/hooks-conditions';

/** Where a hook's timeout came from. */
export type TimeoutSource =
  /** The hook's own `timeout_secs`. */
  | 'hook'
  /** The hook omitted `timeout_secs`: the built-in default (30 s). */
  | 'default'
  /** `[hooks].default_timeout_secs`, which overrides every hook. */
  | 'override';

/** Where in which file an entry was written. */
export interface Origin {
  readonly file: string;
  /** 1-based line of the entry's `[[hooks.hooks]]` / `[[hooks]]` header, when known. */
  readonly line: number | null;
}

/** One validated, normalised hook, ready to match and run. */
export interface HookDefinition {
  /** Position in the merged set (global hooks first, then project hooks). */
  readonly index: number;
  readonly name: string | null;
  /** `sanitizeLabel(name)`: safe to print, `(unnamed)` when there is no name. */
  readonly label: string;
  readonly event: HookEventName;
  /** The raw command (`sh -c` / `cmd /C`). Never printed verbatim outside `hooks review`. */
  readonly command: string;
  /** The hook's own `timeout_secs` (30 when omitted). */
  readonly timeoutSecs: number;
  /** The timeout the runtime applies: the override when one is in force, clamped (D20). */
  readonly effectiveTimeoutSecs: number;
  readonly timeoutSource: TimeoutSource;
  /** `background` as written. */
  readonly background: boolean;
  /** Whether the hook really runs in the background (`shell_env` always runs in the foreground). */
  readonly runsInBackground: boolean;
  readonly continueOnError: boolean;
  /** `null` means `always`. */
  readonly condition: HookCondition | null;
  readonly source: HookSource;
  readonly origin: Origin;
  /** How the hook talks to its command: `codewhale` (the default) or `claude-code`. */
  readonly protocol: HookProtocol;
}

export type ProblemSeverity = 'rejected' | 'warning';

/** A closed set of problem codes, so tools can act on them without parsing text. */
export type ProblemCode =
  | 'unknown_event'
  | 'missing_event'
  | 'missing_command'
  | 'empty_command'
  | 'invalid_type'
  | 'unknown_key'
  | 'unknown_condition_type'
  | 'invalid_condition'
  | 'unknown_tool_category'
  | 'unknown_mode'
  | 'unsupported_condition'
  | 'zero_timeout'
  | 'invalid_timeout'
  | 'background_on_steering_event'
  | 'background_ignored_on_shell_env'
  /** `protocol` names no known protocol. */
  | 'unknown_protocol'
  /** `protocol = "claude-code"` on an event the peer has no counterpart for. */
  | 'unsupported_protocol_event'
  | 'zero_default_timeout'
  | 'invalid_setting'
  | 'unknown_setting'
  /** A project `hooks.toml` with a TOML syntax error: project hooks are skipped. */
  | 'toml_syntax'
  /** A project `hooks.toml` over 1 MiB or not valid UTF-8: project hooks are skipped. */
  | 'project_file_unreadable'
  /** The other file's shape: `[[hooks]]` in config.toml, `[[hooks.hooks]]` / `[hooks]` in hooks.toml. */
  | 'wrong_shape';

/**
 * A configuration problem. `summary` is the line `hooks list` prints; it never contains a
 * command, a path or a payload. `file` / `line` say where, for `hooks validate`.
 */
export interface ConfigProblem {
  readonly severity: ProblemSeverity;
  readonly code: ProblemCode;
  /** The event named by the entry (when it is a known event), or `null` for `[hooks]` settings. */
  readonly event: HookEventName | null;
  /** The hook's sanitized label, or `null` for a `[hooks]` setting problem. */
  readonly label: string | null;
  readonly detail: string;
  readonly summary: string;
  readonly source: HookSource | null;
  readonly file: string | null;
  readonly line: number | null;
  /** Position of the entry in its file's hook array (0-based), when about an entry. */
  readonly entry: number | null;
}

/** The merged, validated hook set every surface loads. */
export interface HookSet {
  /** Whether a `[hooks]` table exists at all (no table means no hooks). */
  readonly configured: boolean;
  /** `[hooks].enabled`; `false` suppresses every hook (they are still listed). */
  readonly enabled: boolean;
  /** The override in force, or `null` (unset, or a rejected `0`). */
  readonly defaultTimeoutSecs: number | null;
  readonly workingDir: string | null;
  /** The runnable hooks in config order: global, then project. */
  readonly hooks: readonly HookDefinition[];
  readonly problems: readonly ConfigProblem[];
}

/** SHA-256 over bytes, lowercase hex. Injected: this package does no hashing of its own. */
export type Sha256 = (data: Uint8Array) => string;
