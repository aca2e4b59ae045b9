/** What a typed permission rule decides for a tool call it matches. */
export type PermissionAction = 'allow' | 'ask' | 'deny';

/** The actions, strongest first: `deny` beats `ask` beats `allow`. */
export const PERMISSION_ACTIONS: readonly PermissionAction[] = ['deny', 'ask', 'allow'];

/** Where a rule was written. */
export interface PermissionRuleOrigin {
  readonly file: string;
  /** 1-based line of its `[[rules]]` header, when known. */
  readonly line: number | null;
  /** 0-based position among the file's `[[rules]]` entries. */
  readonly entry: number;
}

/**
 * One validated `[[rules]]` entry of `permissions.toml`. It matches a call when `tool` matches
 * the tool's name, `command` (if set) matches its shell command, `path` (if set) matches the
 * path it touches, and `workspace` (if set) is the session's workspace.
 */
export interface PermissionRule {
  /** Tool-name glob (`*` = any run of characters); `bash`, `Bash`, `exec_shell` are one tool. */
  readonly tool: string;
  /** Shell-command glob, or `null`. Mutually exclusive with `path`. */
  readonly command: string | null;
  /** Path glob (`*` within a segment, `**` across segments, `?` one character), or `null`. */
  readonly path: string | null;
  /** Absolute workspace path the rule is limited to, without a trailing `/`; `null` = every workspace. */
  readonly workspace: string | null;
  readonly action: PermissionAction;
  readonly origin: PermissionRuleOrigin;
}

/** Why an entry or a key of `permissions.toml` was not accepted. */
export type PermissionIssueCode = 'invalid_type' | 'missing_key' | 'unknown_key' | 'invalid_value' | 'conflicting_keys' | 'unknown_setting' | 'never_matches';

/**
 * A problem with `permissions.toml`. A `rejected` entry is dropped alone (the others load); a
 * `warning` keeps it. Never quotes a command, path or other string value from the file.
 */
export interface PermissionIssue {
  readonly severity: 'rejected' | 'warning';
  readonly code: PermissionIssueCode;
  readonly file: string;
  readonly line: number | null;
  /** 0-based entry position, or `null` for a file-level problem. */
  readonly entry: number | null;
  readonly message: string;
  readonly fix: string;
  /** `{file}:{line}: {severity}: rule {n} — {message} — {fix}`, for the CLI. */
  readonly summary: string;
}

/** `permissions.toml`, parsed: the rules that loaded, in file order, and every problem. */
export interface PermissionRules {
  readonly file: string;
  readonly rules: readonly PermissionRule[];
  readonly issues: readonly PermissionIssue[];
}

/** A tool call as the permission check sees it. */
export interface PermissionCall {
  /** The tool's name as the model called it. */
  readonly name: string;
  /** Its (possibly hook-rewritten) input: `command` for a shell tool, `path` for a file tool. */
  readonly input: unknown;
  /** The session's canonical workspace path. */
  readonly workspace: string;
}

/** The winning rule for a call. */
export interface PermissionMatch {
  readonly action: PermissionAction;
  readonly rule: PermissionRule;
}
