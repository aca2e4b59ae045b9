import type { HookEventName, HookSource } from '@codewhale/hooks-payloads';
import type { ConfigProblem, ProblemCode, ProblemSeverity } from './types.js';

const SAFE_TOKEN = /^[A-Za-z0-9_.-]{1,48}$/;

/**
 * A user-typed name (event, key, condition type, category, mode) as it may appear in a
 * problem line: itself when it is a short plain identifier, otherwise `null`, so a value
 * holding a path, a command, control characters or anything long is never echoed.
 */
export function safeToken(value: unknown): string | null {
  return typeof value === 'string' && SAFE_TOKEN.test(value) ? value : null;
}

/** ``{what} `x` `` for a safe token, otherwise just `{what}`: `named('unknown key', k)`. */
export function named(what: string, value: unknown): string {
  const token = safeToken(value);
  return token === null ? what : `${what} \`${token}\``;
}

/** ``; did you mean `x`?`` or the empty string. */
export function didYouMean(suggestion: string | null): string {
  return suggestion === null ? '' : `; did you mean \`${suggestion}\`?`;
}

/**
 * What goes between the backticks of an entry's problem line: the event when known, the
 * typed name when it is a short plain identifier, `(missing event)` or `(invalid event)`.
 */
export function eventPart(event: unknown): string {
  if (event === undefined) return '(missing event)';
  return safeToken(event) ?? '(invalid event)';
}

/** Where an entry problem came from. */
export interface EntryRef {
  readonly event: HookEventName | null;
  /** The raw `event` value, for rendering an unknown one. */
  readonly rawEvent: unknown;
  readonly label: string;
  readonly source: HookSource;
  readonly file: string;
  readonly line: number | null;
  readonly entry: number;
}

/** A problem about one hook entry: ``{severity}: `{event}` hook `{label}` — {detail}``. */
export function entryProblem(ref: EntryRef, severity: ProblemSeverity, code: ProblemCode, detail: string): ConfigProblem {
  return {
    severity,
    code,
    event: ref.event,
    label: ref.label,
    detail,
    summary: `${severity}: \`${ref.event ?? eventPart(ref.rawEvent)}\` hook \`${ref.label}\` \u2014 ${detail}`,
    source: ref.source,
    file: ref.file,
    line: ref.line,
    entry: ref.entry,
  };
}

/** A problem about a `[hooks]` setting: ``{severity}: `[hooks]` setting — {detail}``. */
export function settingProblem(severity: ProblemSeverity, code: ProblemCode, detail: string, where: { readonly file: string; readonly line: number | null }): ConfigProblem {
  return {
    severity,
    code,
    event: null,
    label: null,
    detail,
    summary: `${severity}: \`[hooks]\` setting \u2014 ${detail}`,
    source: 'global',
    file: where.file,
    line: where.line,
    entry: null,
  };
}

/** A problem about a whole project hooks file: `warning: project hooks file — {detail}`. */
export function projectFileProblem(code: ProblemCode, detail: string, where: { readonly file: string; readonly line: number | null }): ConfigProblem {
  return {
    severity: 'warning',
    code,
    event: null,
    label: null,
    detail,
    summary: `warning: project hooks file \u2014 ${detail}`,
    source: 'project',
    file: where.file,
    line: where.line,
    entry: null,
  };
}
