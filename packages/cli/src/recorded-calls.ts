import { checkReplayScript } from '@codewhale/engine/providers';
import type { GateDecision } from '@codewhale/hooks-payloads';

/** One tool call a recorded session made, as the model asked for it. */
export interface RecordedCall {
  /** 1-based line in the file the call came from. */
  readonly line: number;
  readonly id: string;
  readonly name: string;
  /** The parsed input; `undefined` when the arguments were not valid JSON. */
  readonly input: unknown;
  /** The raw arguments text when they were not valid JSON (the engine refuses such a call before hooks). */
  readonly invalidArguments: boolean;
  /** The `tool_call_before` decision the transcript recorded for this call, when it has one. */
  readonly recorded: GateDecision | null;
}

export interface RecordedSession {
  readonly format: 'replay-script' | 'stream-json';
  readonly calls: readonly RecordedCall[];
}

export type RecordedSessionResult = { readonly ok: true; readonly value: RecordedSession } | { readonly ok: false; readonly issues: readonly string[] };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function lines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
}

/** The first JSON object line decides: a `type` field means a stream-json transcript. */
function looksLikeStreamJson(text: string): boolean {
  for (const raw of lines(text)) {
    const t = raw.trim();
    if (t === '' || t.startsWith('//')) continue;
    try {
      const v: unknown = JSON.parse(t);
      if (isRecord(v)) return typeof v.type === 'string';
    } catch {
      // not JSON: keep looking
    }
  }
  return false;
}

function parseArguments(args: string): { input: unknown; invalid: boolean } {
  try {
    return { input: args.trim() === '' ? {} : JSON.parse(args), invalid: false };
  } catch {
    return { input: undefined, invalid: true };
  }
}

function fromStreamJson(text: string): RecordedSession {
  const calls: { line: number; id: string; name: string; input: unknown; invalidArguments: boolean }[] = [];
  const decisions = new Map<string, GateDecision>();
  lines(text).forEach((raw, i) => {
    const t = raw.trim();
    if (t === '') return;
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      return;
    }
    if (!isRecord(v)) return;
    if (v.type === 'tool_use' && typeof v.name === 'string' && v.name !== '') {
      const id = typeof v.id === 'string' && v.id !== '' ? v.id : `call_line_${i + 1}`;
      // The transcript keeps arguments that were not JSON as the raw string.
      const invalid = typeof v.input === 'string';
      calls.push({ line: i + 1, id, name: v.name, input: invalid ? undefined : (v.input ?? {}), invalidArguments: invalid });
    } else if (v.type === 'tool_result' && typeof v.id === 'string' && isRecord(v.decision)) {
      const d = v.decision.decision;
      if (d === 'allow' || d === 'deny' || d === 'ask') decisions.set(v.id, d);
    }
  });
  return { format: 'stream-json', calls: calls.map((c) => ({ ...c, recorded: decisions.get(c.id) ?? null })) };
}

/**
 * The tool calls of a recorded session: a replay JSONL script (each turn's `tool_calls`, ids
 * as the replay provider assigns them) or a `codewhale exec --output-format stream-json`
 * transcript (`tool_use` lines; a `tool_result` carrying a decision record says what was
 * decided then; other lines are ignored). A replay script with problems fails with every
 * problem as `file:line: problem`.
 */
export function readRecordedCalls(text: string, file: string): RecordedSessionResult {
  if (looksLikeStreamJson(text)) return { ok: true, value: fromStreamJson(text) };
  const script = checkReplayScript(text, file);
  if (!script.ok) return { ok: false, issues: script.issues.map((i) => `${i.file}:${i.line}: ${i.message}`) };
  const calls: RecordedCall[] = [];
  script.value.forEach((turn, t) => {
    turn.toolCalls.forEach((call, i) => {
      const args = parseArguments(call.arguments);
      calls.push({
        line: turn.line,
        id: call.id ?? `call_${t + 1}_${i + 1}`,
        name: call.name,
        input: args.input,
        invalidArguments: args.invalid,
        recorded: null,
      });
    });
  });
  return { ok: true, value: { format: 'replay-script', calls } };
}
