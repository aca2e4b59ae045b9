import { resolve } from 'node:path';
import { parseMode } from '@codewhale/engine';
import { engineModeSpelling, type GateDecisionRecord } from '@codewhale/hooks-payloads';
import { CliError } from '../cli-error.js';
import { readInputText } from '../read-input-file.js';
import { commandContext } from '../context.js';
import { gateDecisionToJson as gateDecisionJson } from '@codewhale/hooks-payloads';
import { configurationNotes, diagnosticsJson, diagnosticsLines, endDryRun, parseModeOption, planNotes, startDryRun } from '../dry-run.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import { line, plural, printJsonLine } from '../render.js';
import { readRecordedCalls, type RecordedCall } from '../recorded-calls.js';
import { checkExpect, type HooksTestOptions } from './hooks-test-options.js';

/** What one replayed call would meet now. */
interface Replayed {
  readonly call: RecordedCall;
  /** `null`: refused before any hook (arguments not JSON). */
  readonly record: GateDecisionRecord | null;
  /** What a session would do after the hooks and the typed rules (a rewrite the tool rejects is a deny). */
  readonly effective?: 'allow' | 'deny' | 'ask';
  readonly notes: readonly string[];
}

const REFUSED = 'refused';
const REFUSED_TEXT = 'refused before hooks \u2014 the arguments are not valid JSON, so the engine never reaches tool_call_before';

function outcomeOf(r: Replayed): string {
  return r.record ? (r.effective ?? r.record.decision) : REFUSED;
}

function callLine(n: number, r: Replayed, expected: string | null): string {
  const c = r.call;
  const head = `  ${n}. ${line(c.name, 64)} ${r.record ? (r.record.input.original.length > 160 ? `${r.record.input.original.slice(0, 159)}\u2026` : r.record.input.original) : '(invalid JSON)'} (line ${c.line})`;
  let tail: string;
  if (!r.record) tail = REFUSED_TEXT;
  else {
    const d = r.record;
    tail = d.decision === 'deny' ? `deny \u2014 ${line(d.message ?? '', 300)}` : d.decision;
    if (d.input.rewritten !== null) tail += `, input rewritten to ${d.input.rewritten.length > 160 ? `${d.input.rewritten.slice(0, 159)}\u2026` : d.input.rewritten}`;
    if (d.additionalContext !== null) tail += ', context added';
    if (d.hooks.length) tail += ` [${d.hooks.map((h) => `${h.label}=${h.outcome}`).join(', ')}]`;
    else tail += ' [no hook matched]';
  }
  const marks: string[] = [];
  if (c.recorded !== null && r.record && c.recorded !== r.record.decision) marks.push(`CHANGED: was ${c.recorded}`);
  if (expected !== null && outcomeOf(r) !== expected) marks.push(`expected ${expected}`);
  const notes = r.notes.map((note) => `\n       note: ${line(note, 400)}`).join('');
  return `${head} \u2192 ${tail}${marks.length ? `  << ${marks.join('; ')}` : ''}${notes}`;
}

/**
 * `codewhale hooks test --replay FILE`: replay a recorded session's tool calls (a replay JSONL
 * script, or an `exec --output-format stream-json` transcript) through today's
 * `tool_call_before` hooks, call by call, and say what would now be allowed, denied, asked or
 * rewritten — policy regression testing. Nothing but the hooks runs. `--expect` fails (exit 1)
 * when any call's decision differs; `--json` prints one JSON line per call and a summary line.
 */
export async function runHooksTestReplay(file: string, opts: HooksTestOptions, io: Io): Promise<number> {
  const expected = checkExpect('tool_call_before', opts.expect);
  for (const [value, flag] of [
    [opts.tool, '--tool'],
    [opts.input, '--input'],
    [opts.text, '--text'],
    [opts.exitCode, '--exit-code'],
    [opts.error, '--error'],
    [opts.reason, '--reason'],
    [opts.showValues, '--show-values'],
  ] as const) {
    if (value !== undefined) io.stderr(`note: ${flag} is not used with --replay (the recorded calls supply the tools and inputs)\n`);
  }
  const mode = parseModeOption(opts.mode, 'work', parseMode);
  const path = resolve(io.cwd, file);
  const text = readInputText(path, 'the recording');
  const session = readRecordedCalls(text, path);
  if (!session.ok) {
    for (const issue of session.issues.slice(0, 20)) io.stderr(`  ${line(issue, 300)}\n`);
    throw CliError.config(
      `${path} is neither a valid replay script nor a stream-json transcript (${plural(session.issues.length, 'problem')}${session.issues.length > 20 ? ', first 20 above' : ' above'})`,
      'a replay script has one JSON model turn per line; a transcript comes from `codewhale exec --output-format stream-json`',
    );
  }
  const { format, calls } = session.value;
  const engineMode = engineModeSpelling(mode);

  const ctx = commandContext(opts, io);
  const run = startDryRun(ctx, io);
  const replayed: Replayed[] = [];
  try {
    for (const call of calls) {
      if (call.invalidArguments) {
        replayed.push({ call, record: null, notes: [] });
        continue;
      }
      // The session's own gate chain (planToolCall): a replay cannot drift from a real run.
      const dry = await run.harness.planCall({ id: call.id, name: call.name, input: call.input, mode });
      replayed.push({ call, record: dry.decision, effective: dry.effective, notes: planNotes(call.name, dry) });
    }
  } finally {
    await endDryRun(run);
  }

  const count = (d: string) => replayed.filter((r) => outcomeOf(r) === d).length;
  const summary = {
    calls: replayed.length,
    allow: count('allow'),
    deny: count('deny'),
    ask: count('ask'),
    rewritten: replayed.filter((r) => r.record?.input.rewritten != null).length,
    refused: count(REFUSED),
    changed: replayed.filter((r) => r.call.recorded !== null && r.record !== null && r.call.recorded !== r.record.decision).length,
    mismatches: expected === null ? 0 : replayed.filter((r) => outcomeOf(r) !== expected).length,
  };

  if (opts.json) {
    replayed.forEach((r, i) => {
      const outcome = outcomeOf(r);
      printJsonLine(io, {
        type: 'call',
        n: i + 1,
        line: r.call.line,
        id: r.call.id,
        tool: r.call.name,
        input: r.call.invalidArguments ? null : (r.call.input ?? null),
        outcome,
        rewritten: r.record?.input.rewritten != null,
        recorded: r.call.recorded,
        changed: r.call.recorded !== null && r.record !== null ? r.call.recorded !== r.record.decision : null,
        expect_met: expected === null ? null : outcome === expected,
        notes: r.record ? r.notes : [REFUSED_TEXT],
        decision: r.record ? gateDecisionJson(r.record) : null,
      });
    });
    printJsonLine(io, {
      type: 'summary',
      file: path,
      format,
      mode: engineMode,
      expect: expected,
      ...summary,
      hook_set_digest: run.config.digest,
      notes: configurationNotes(run.config),
      diagnostics: diagnosticsJson(run.logger),
    });
  } else {
    const out: string[] = [
      `Replaying ${plural(calls.length, 'tool call')} from ${line(path)} (${format === 'stream-json' ? 'stream-json transcript' : 'replay script'}) through tool_call_before \u2014 the hooks run for real; no tool runs.`,
      `context: mode ${engineMode}, model ${run.model}, session ${run.runtime.sessionId}`,
      '',
    ];
    if (calls.length === 0) out.push('  (no tool calls in this recording)');
    replayed.forEach((r, i) => out.push(callLine(i + 1, r, expected)));
    out.push(
      '',
      `summary: ${plural(summary.calls, 'call')} \u2014 ${summary.allow} allowed${summary.rewritten ? ` (${summary.rewritten} rewritten)` : ''}, ${summary.deny} denied, ${summary.ask} asked${summary.refused ? `, ${summary.refused} refused before hooks` : ''}${summary.changed ? `; ${summary.changed} changed since the recording` : ''}`,
      `  hook set digest: ${run.config.digest}`,
    );
    if (expected !== null) out.push(`  expect: every call ${expected} \u2014 ${summary.mismatches === 0 ? 'ok' : `${summary.mismatches} MISMATCHED`}`);
    const notes = configurationNotes(run.config);
    if (notes.length) out.push('', 'notes:', ...notes.map((n) => `  - ${line(n, 600)}`));
    const diagnostics = diagnosticsLines(run.logger);
    if (diagnostics.length) out.push('', 'log:', ...diagnostics);
    io.stdout(`${out.join('\n')}\n`);
  }
  if (summary.mismatches > 0) {
    io.stderr(`expectation failed: ${summary.mismatches} of ${plural(summary.calls, 'call')} did not get \`${expected}\`\n`);
    return EXIT.failure;
  }
  return EXIT.ok;
}
