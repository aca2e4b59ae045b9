import {
  eventSpec,
  HOOK_EVENT_NAMES,
  HOOK_PROTOCOLS,
  isHookEventName,
  isHookProtocol,
  ourToPeerEvent,
  PEER_EVENT_NAMES,
  peerToOurEvent,
  sanitizeLabel,
  LIMITS,
  type HookEventName,
  type HookProtocol,
  type HookSource,
} from '@codewhale/hooks-payloads';
import { unsupportedConditions, type HookCondition } from '@codewhale/hooks-conditions';
import { checkSeconds, checkShape, describeValue, HOOK_ENTRY_KEYS, HOOK_ENTRY_SHAPE, isTable } from './schema.js';
import { parseCondition } from './parse-condition.js';
import { didYouMean, entryProblem, named, type EntryRef } from './problem.js';
import { FOREIGN_EVENT_ALIASES, suggest } from './suggest.js';
import { effectiveTimeout } from './effective-timeout.js';
import type { ConfigProblem, HookDefinition, ProblemCode, ProblemSeverity } from './types.js';

/** One raw hook entry as found in a file. */
export interface RawHookEntry {
  readonly raw: unknown;
  /** 0-based position in its file's hook array. */
  readonly position: number;
  /** Line of the entry's `[[hooks.hooks]]` / `[[hooks]]` header, when it has one. */
  readonly line: number | null;
  readonly source: HookSource;
  readonly file: string;
}

/** A problem before it is bound to its entry. */
export interface Finding {
  readonly severity: ProblemSeverity;
  readonly code: ProblemCode;
  readonly detail: string;
}

/** The fields of an entry that are individually well-formed (the rest are `undefined`). */
export interface EntryFields {
  readonly event: HookEventName | undefined;
  readonly command: string | undefined;
  readonly name: string | null;
  /** `timeout_secs` when it is a positive whole number; `0` is kept for the zero-timeout rule. */
  readonly timeoutSecs: number | null;
  readonly background: boolean;
  readonly continueOnError: boolean;
  /** `protocol`, when it names a known protocol (`codewhale` when omitted). */
  readonly protocol: HookProtocol | undefined;
}

export interface CheckedEntry {
  readonly ref: EntryRef;
  /** Every problem with this entry, in the order `hooks list` shows them. */
  readonly problems: readonly ConfigProblem[];
  /** The hook (without its merged `index`), or `null` when the entry is rejected. */
  readonly hook: Omit<HookDefinition, 'index'> | null;
}

const rejected = (code: ProblemCode, detail: string): Finding => ({ severity: 'rejected', code, detail });
const warning = (code: ProblemCode, detail: string): Finding => ({ severity: 'warning', code, detail });
const KEY_LIST = HOOK_ENTRY_KEYS.map((k) => `\`${k}\``).join(', ');
const PROTOCOL_LIST = HOOK_PROTOCOLS.map((p) => `\`"${p}"\``).join(', ');
/** Spellings of the peer protocol people reach for (snake_case, as `suggest` compares them). */
const PROTOCOL_ALIASES: Readonly<Record<string, string>> = {
  claude: 'claude-code',
  claudecode: 'claude-code',
  claude_code: 'claude-code',
  codex: 'claude-code',
  native: 'codewhale',
  default: 'codewhale',
};

/**
 * The entry's own fields: types, required keys, unknown keys (D8), with reasons and
 * "did you mean" suggestions. Findings come in documented key order, unknown keys last.
 */
export function readEntryFields(raw: unknown): { readonly fields: EntryFields; readonly findings: readonly Finding[] } {
  const findings: Finding[] = [];
  const table = isTable(raw) ? raw : {};
  if (!isTable(raw)) findings.push(rejected('invalid_type', `a hook entry must be a table (got ${describeValue(raw)})`));
  const shape = checkShape(table, HOOK_ENTRY_SHAPE);
  const bad = new Set<string>(shape.invalid);
  const unknownKeys = shape.unknown;
  const v = (key: string): unknown => table[key];
  const type = (key: string, expected: string): Finding => rejected('invalid_type', `\`${key}\` must be ${expected} (got ${describeValue(v(key))})`);

  let event: HookEventName | undefined;
  if (isTable(raw)) {
    if (v('event') === undefined) findings.push(rejected('missing_event', '`event` is missing; `hooks events` lists the 15 event names'));
    else if (bad.has('event')) findings.push(type('event', 'a string naming an event'));
    else if (isHookEventName(v('event'))) event = v('event') as HookEventName;
    else {
      const hint = didYouMean(suggest(v('event') as string, HOOK_EVENT_NAMES, { aliases: FOREIGN_EVENT_ALIASES }));
      findings.push(rejected('unknown_event', `${named('unknown event', v('event'))}${hint}${hint ? '' : '; `hooks events` lists the 15 event names'}`));
    }
    if (v('command') === undefined) findings.push(rejected('missing_command', '`command` is missing'));
    else if (bad.has('command')) findings.push(type('command', 'a string'));
  }
  if (bad.has('name')) findings.push(type('name', 'a string'));

  let timeoutSecs: number | null = null;
  if (v('timeout_secs') !== undefined) {
    const check = checkSeconds(v('timeout_secs'));
    if (check.kind === 'ok') timeoutSecs = check.secs;
    else if (check.kind === 'zero') timeoutSecs = 0;
    else if (check.kind === 'wrong_type') findings.push(type('timeout_secs', 'a whole number of seconds'));
    else findings.push(rejected('invalid_timeout', `\`timeout_secs\` must be a positive whole number of seconds (got ${check.kind === 'negative' ? 'a negative number' : 'a fractional number'})`));
  }
  for (const key of ['background', 'continue_on_error']) if (bad.has(key)) findings.push(type(key, '`true` or `false`'));

  let protocol: HookProtocol | undefined = 'codewhale';
  if (v('protocol') !== undefined) {
    if (bad.has('protocol')) {
      protocol = undefined;
      findings.push(type('protocol', `a string, one of ${PROTOCOL_LIST}`));
    } else if (isHookProtocol(v('protocol'))) protocol = v('protocol') as HookProtocol;
    else {
      protocol = undefined;
      const hint = didYouMean(suggest(v('protocol') as string, HOOK_PROTOCOLS, { aliases: PROTOCOL_ALIASES }));
      findings.push(rejected('unknown_protocol', `${named('unknown protocol', v('protocol'))}${hint}${hint ? '' : `; \`protocol\` is one of ${PROTOCOL_LIST}`}`));
    }
  }

  for (const key of unknownKeys) {
    const hint = didYouMean(suggest(key, HOOK_ENTRY_KEYS));
    findings.push(rejected('unknown_key', `${named('unknown key', key)}${hint}${hint ? '' : `; an entry takes ${KEY_LIST}`}`));
  }

  const fields: EntryFields = {
    event,
    command: typeof v('command') === 'string' ? (v('command') as string) : undefined,
    name: typeof v('name') === 'string' ? (v('name') as string) : null,
    timeoutSecs,
    background: v('background') === true,
    continueOnError: v('continue_on_error') !== false,
    protocol,
  };
  return { fields, findings };
}

/** Condition problems in tree-walk order: malformed predicates, then predicates the event never supports. */
export function conditionRule(rawCondition: unknown, event: HookEventName | undefined): { readonly condition: HookCondition | null; readonly findings: readonly Finding[] } {
  if (rawCondition === undefined) return { condition: null, findings: [] };
  const parsed = parseCondition(rawCondition);
  const findings: Finding[] = parsed.issues.map((i) => rejected(i.code, i.detail));
  if (event !== undefined) {
    for (const u of unsupportedConditions(event, parsed.condition)) findings.push(rejected('unsupported_condition', u.detail));
  }
  return { condition: parsed.condition, findings };
}

/** `background = true` where it is not honoured (`shell_env`) or cannot steer (`message_submit`, `tool_call_before`): a warning. */
export function backgroundRule(event: HookEventName | undefined, background: boolean): Finding[] {
  if (!background || event === undefined) return [];
  const steering = eventSpec(event).steering;
  if (steering === 'env') {
    return [warning('background_ignored_on_shell_env', `\`background = true\` is not honored for \`${event}\`; its stdout is the contract, so it always runs in the foreground`)];
  }
  if (steering !== 'observer') {
    return [warning('background_on_steering_event', `\`background = true\` makes this \`${event}\` hook observer-only \u2014 it is submitted and never awaited, so it cannot steer the turn`)];
  }
  return [];
}

/**
 * `protocol = "claude-code"` on an event the peer has no counterpart for: rejected, because the
 * hook would be given a document its script was never written for.
 */
export function protocolEventRule(event: HookEventName | undefined, protocol: HookProtocol | undefined): Finding[] {
  if (event === undefined || protocol !== 'claude-code' || ourToPeerEvent(event) !== null) return [];
  const events = PEER_EVENT_NAMES.map((n) => `\`${peerToOurEvent(n)}\` (${n})`).join(', ');
  return [rejected('unsupported_protocol_event', `\`protocol = "claude-code"\` has no counterpart for \`${event}\`; it runs on ${events}. Remove \`protocol\` to use Codewhale's own protocol`)];
}

/** `timeout_secs = 0` would kill the hook before it can answer: rejected. */
export function zeroTimeoutRule(timeoutSecs: number | null): Finding[] {
  return timeoutSecs === 0 ? [rejected('zero_timeout', '`timeout_secs = 0` expires immediately; the command is killed before it can produce output')] : [];
}

/** A `command` that is empty after trimming runs nothing: rejected. */
export function emptyCommandRule(command: string | undefined): Finding[] {
  return command !== undefined && command.trim() === '' ? [rejected('empty_command', '`command` is empty')] : [];
}

/**
 * Judge one entry on its own (per entry, by position: it never takes another entry with it).
 * Every problem is collected; any `rejected` one drops the entry. `overrideSecs` is the
 * `[hooks].default_timeout_secs` in force, which replaces the hook's own timeout.
 */
export function checkHookEntry(entry: RawHookEntry, overrideSecs: number | null): CheckedEntry {
  const { fields, findings } = readEntryFields(entry.raw);
  const table = isTable(entry.raw) ? entry.raw : {};
  const condition = conditionRule(table['condition'], fields.event);
  const all = [
    ...findings,
    ...condition.findings,
    ...backgroundRule(fields.event, fields.background),
    ...zeroTimeoutRule(fields.timeoutSecs),
    ...emptyCommandRule(fields.command),
    ...protocolEventRule(fields.event, fields.protocol),
  ];
  const label = sanitizeLabel(fields.name);
  const ref: EntryRef = {
    event: fields.event ?? null,
    rawEvent: table['event'],
    label,
    source: entry.source,
    file: entry.file,
    line: entry.line,
    entry: entry.position,
  };
  const problems = all.map((f) => entryProblem(ref, f.severity, f.code, f.detail));
  if (all.some((f) => f.severity === 'rejected') || fields.event === undefined || fields.command === undefined || fields.protocol === undefined) {
    return { ref, problems, hook: null };
  }
  const timeout = effectiveTimeout(fields.timeoutSecs, overrideSecs);
  return {
    ref,
    problems,
    hook: {
      name: fields.name,
      label,
      event: fields.event,
      command: fields.command,
      timeoutSecs: fields.timeoutSecs ?? LIMITS.defaultTimeoutSecs,
      effectiveTimeoutSecs: timeout.secs,
      timeoutSource: timeout.source,
      background: fields.background,
      runsInBackground: fields.background && eventSpec(fields.event).steering !== 'env',
      continueOnError: fields.continueOnError,
      condition: condition.condition,
      source: entry.source,
      origin: { file: entry.file, line: entry.line },
      protocol: fields.protocol,
    },
  };
}
