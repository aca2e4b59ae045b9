/**
 * The replay script: a JSONL file of model turns (format in `REPLAY-FORMAT.md`), parsed and
 * checked line by line.
 */
import type { FinishReason } from './chat-chunk-reader.js';
import { boundLine } from './safe-text.js';
import { suggest as suggestName } from '@codewhale/hooks-config';
import type { ErrorCategory } from './types.js';
import { EngineError } from '../errors.js';

/** One tool call of a replay turn. */
export interface ReplayToolCall {
  /** The id to use; `null` → `call_<turn>_<i>` (both 1-based). */
  readonly id: string | null;
  readonly name: string;
  /** The raw arguments text (an object in the script is serialised with `JSON.stringify`). */
  readonly arguments: string;
}

/** A failure a replay turn plays instead of finishing. */
export interface ReplayFailure {
  readonly category: ErrorCategory;
  readonly message: string;
  readonly retryable: boolean;
  readonly status: number | null;
  readonly retryAfterSecs: number | null;
}

/** One model response of the script: what one `stream()` call plays. */
export interface ReplayTurn {
  /** 1-based line number in the script file. */
  readonly line: number;
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: readonly ReplayToolCall[];
  /** The wire-style usage object when the script gave one (missing counts are estimated). */
  readonly usage: Readonly<Record<string, unknown>> | null;
  /** `null` → `tool_calls` when the turn has calls, else `stop`. */
  readonly finish: FinishReason | null;
  /** When set, the turn streams its text/reasoning and then throws this. */
  readonly error: ReplayFailure | null;
  /** Wait this long before streaming (cancellable). */
  readonly delayMs: number;
}

/** One problem in a script. */
export interface ReplayScriptIssue {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** Result of {@link checkReplayScript}. */
export type ReplayScriptResult = { readonly ok: true; readonly value: readonly ReplayTurn[] } | { readonly ok: false; readonly issues: readonly ReplayScriptIssue[] };

/** A script that could not be parsed. `message` lists every problem as `file:line: problem`. */
export class ReplayScriptError extends EngineError {
  readonly code = 'replay_script_invalid' as const;
  readonly file: string;
  declare readonly issues: readonly ReplayScriptIssue[];

  constructor(file: string, issues: readonly ReplayScriptIssue[], options: { cause?: unknown } = {}) {
    const shown = issues.slice(0, 20).map((i) => `  ${i.file}:${i.line}: ${i.message}`);
    if (issues.length > 20) shown.push(`  … and ${issues.length - 20} more`);
    super('config', `replay script ${file} is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${shown.join('\n')}`, {
      ...options,
      issues,
      fix: 'fix the replay script (one JSON object per line; see REPLAY-FORMAT.md)',
    });
    this.name = 'ReplayScriptError';
    this.file = file;
  }

  static override isInstance(e: unknown): e is ReplayScriptError {
    return e instanceof ReplayScriptError;
  }
}

const TURN_KEYS = ['text', 'reasoning', 'tool_calls', 'usage', 'finish', 'error', 'delay_ms'] as const;
const CALL_KEYS = ['id', 'name', 'arguments'] as const;
const ERROR_KEYS = ['category', 'message', 'retryable', 'status', 'retry_after'] as const;
const FINISH_REASONS: readonly FinishReason[] = ['stop', 'tool_calls', 'length', 'content_filter', 'other'];
/** Every {@link ErrorCategory}. */
export const ERROR_CATEGORIES: readonly ErrorCategory[] = [
  'config',
  'network',
  'authentication',
  'authorization',
  'rate_limit',
  'timeout',
  'budget',
  'invalid_input',
  'parse',
  'tool',
  'state',
  'cancelled',
  'internal',
];
const RETRYABLE_BY_DEFAULT: ReadonlySet<ErrorCategory> = new Set(['network', 'rate_limit', 'timeout']);

/**
 * Check a script. Blank lines and lines whose first non-blank characters are `//` are skipped;
 * every other line must be one JSON object describing a turn. All problems are collected.
 */
export function checkReplayScript(text: string, file: string): ReplayScriptResult {
  const issues: ReplayScriptIssue[] = [];
  const turns: ReplayTurn[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('//')) return;
    const problems: string[] = [];
    const turn = parseTurn(trimmed, line, problems);
    for (const message of problems) issues.push({ file, line, message });
    if (turn !== null && problems.length === 0) turns.push(turn);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: turns };
}

/** {@link checkReplayScript}, throwing a {@link ReplayScriptError} listing every problem. */
export function parseReplayScript(text: string, file: string): ReplayTurn[] {
  const result = checkReplayScript(text, file);
  if (!result.ok) throw new ReplayScriptError(file, result.issues);
  return [...result.value];
}

function parseTurn(text: string, line: number, problems: string[]): ReplayTurn | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    problems.push(`not valid JSON (${boundLine(e instanceof Error ? e.message : String(e), 120)})`);
    return null;
  }
  if (!isRecord(json)) {
    problems.push(`expected a JSON object describing one model turn, got ${describe(json)}`);
    return null;
  }
  unknownKeys(json, TURN_KEYS, '', problems);
  const text_ = optionalString(json, 'text', problems);
  const reasoning = optionalString(json, 'reasoning', problems);
  const toolCalls = parseToolCalls(json['tool_calls'], problems);
  let usage: Record<string, unknown> | null = null;
  if (json['usage'] !== undefined && json['usage'] !== null) {
    if (!isRecord(json['usage'])) problems.push(`\`usage\` must be an object, got ${describe(json['usage'])}`);
    else usage = json['usage'];
  }
  let finish: FinishReason | null = null;
  if (json['finish'] !== undefined && json['finish'] !== null) {
    const f = json['finish'];
    if (typeof f === 'string' && (FINISH_REASONS as readonly string[]).includes(f)) finish = f as FinishReason;
    else problems.push(`\`finish\` must be one of ${FINISH_REASONS.join(', ')}, got ${describe(f)}${typeof f === 'string' ? hint(f, FINISH_REASONS) : ''}`);
  }
  const error = parseFailure(json['error'], problems);
  let delayMs = 0;
  if (json['delay_ms'] !== undefined) {
    const d = json['delay_ms'];
    if (typeof d === 'number' && Number.isFinite(d) && d >= 0) delayMs = d;
    else problems.push(`\`delay_ms\` must be a number ≥ 0, got ${describe(d)}`);
  }
  return { line, text: text_ ?? '', reasoning: reasoning ?? '', toolCalls, usage, finish, error, delayMs };
}

function parseToolCalls(raw: unknown, problems: string[]): ReplayToolCall[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(`\`tool_calls\` must be an array, got ${describe(raw)}`);
    return [];
  }
  const calls: ReplayToolCall[] = [];
  raw.forEach((c: unknown, i) => {
    const where = `tool_calls[${i}]`;
    if (!isRecord(c)) {
      problems.push(`\`${where}\` must be an object, got ${describe(c)}`);
      return;
    }
    unknownKeys(c, CALL_KEYS, `${where}.`, problems);
    const name = c['name'];
    if (typeof name !== 'string' || name === '') problems.push(`\`${where}.name\` must be a non-empty string`);
    const id = c['id'];
    if (id !== undefined && id !== null && (typeof id !== 'string' || id === '')) problems.push(`\`${where}.id\` must be a non-empty string`);
    const args = c['arguments'];
    let argText = '{}';
    if (typeof args === 'string') argText = args;
    else if (isRecord(args)) argText = JSON.stringify(args);
    else if (args !== undefined) problems.push(`\`${where}.arguments\` must be an object or a string, got ${describe(args)}`);
    calls.push({ id: typeof id === 'string' && id !== '' ? id : null, name: typeof name === 'string' ? name : '', arguments: argText });
  });
  return calls;
}

function parseFailure(raw: unknown, problems: string[]): ReplayFailure | null {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) {
    problems.push(`\`error\` must be an object like {"category": "rate_limit", "message": "…"}, got ${describe(raw)}`);
    return null;
  }
  unknownKeys(raw, ERROR_KEYS, 'error.', problems);
  const c = raw['category'];
  let category: ErrorCategory = 'internal';
  if (typeof c === 'string' && (ERROR_CATEGORIES as readonly string[]).includes(c)) category = c as ErrorCategory;
  else problems.push(`\`error.category\` must be one of ${ERROR_CATEGORIES.join(', ')}, got ${describe(c)}${typeof c === 'string' ? hint(c, ERROR_CATEGORIES) : ''}`);
  const m = raw['message'];
  if (typeof m !== 'string' || m === '') problems.push('`error.message` must be a non-empty string');
  const r = raw['retryable'];
  if (r !== undefined && typeof r !== 'boolean') problems.push('`error.retryable` must be true or false');
  const s = raw['status'];
  if (s !== undefined && !(typeof s === 'number' && Number.isInteger(s) && s >= 100 && s <= 599)) problems.push('`error.status` must be an HTTP status (100–599)');
  const ra = raw['retry_after'];
  if (ra !== undefined && !(typeof ra === 'number' && Number.isFinite(ra) && ra >= 0)) problems.push('`error.retry_after` must be a number of seconds ≥ 0');
  return {
    category,
    message: typeof m === 'string' ? m : '',
    retryable: typeof r === 'boolean' ? r : RETRYABLE_BY_DEFAULT.has(category),
    status: typeof s === 'number' ? s : null,
    retryAfterSecs: typeof ra === 'number' ? ra : null,
  };
}

function unknownKeys(obj: Record<string, unknown>, known: readonly string[], prefix: string, problems: string[]): void {
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) problems.push(`unknown key \`${prefix}${boundLine(key, 40)}\`${hint(key, known)} (known: ${known.join(', ')})`);
  }
}

function optionalString(obj: Record<string, unknown>, key: string, problems: string[]): string | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  problems.push(`\`${key}\` must be a string, got ${describe(v)}`);
  return null;
}

function hint(input: string, candidates: readonly string[]): string {
  const s = suggestName(input, candidates);
  return s === null ? '' : `; did you mean \`${s}\`?`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${boundLine(JSON.stringify(v) ?? String(v), 40)}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
