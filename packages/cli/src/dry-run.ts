import { resolve } from 'node:path';
import { BUILTIN_TOOLS, HookHarness, type DryRunCall } from '@codewhale/engine';
import { hookConfigurationNotes } from '@codewhale/engine/internal';
import { FOREIGN_EVENT_ALIASES, isStrictHook, suggest, type HookDefinition, type HookSet } from '@codewhale/hooks-config';
import { matchCondition } from '@codewhale/hooks-conditions';
import { HOOK_EVENT_NAMES, isHookEventName, outcomeDetail, sanitizeLine, type CanonicalMode, type HookContext, type HookEventName, type HookOutcome } from '@codewhale/hooks-payloads';
import type { HookConfiguration, MemoryLogger } from '@codewhale/hooks-supervisor';
import { CliError, fromEngineError } from './cli-error.js';
import { explainMismatch } from './condition-explain.js';
import type { CommandContext } from './context.js';
import type { Io } from './io.js';
import { line, origin } from './render.js';
import { readInputText } from './read-input-file.js';

/** A `hooks test` session: the engine's hook harness (real configuration, a runtime that writes nothing to disk). */
export interface DryRun {
  readonly harness: HookHarness;
  readonly config: HookConfiguration;
  readonly runtime: HookHarness['runtime'];
  readonly logger: MemoryLogger;
  readonly model: string;
}

/** Load the configuration exactly as a session would; hooks inherit this process's environment. */
export function startDryRun(ctx: CommandContext, io: Io): DryRun {
  let harness: HookHarness;
  try {
    harness = HookHarness.open({ workspace: ctx.workspace, env: io.env, configPath: ctx.paths.configPath });
  } catch (e) {
    throw fromEngineError(e);
  }
  return { harness, config: harness.configuration, runtime: harness.runtime, logger: harness.logger, model: harness.model };
}

/** Wait for background submissions to finish, then stop the pools. */
export async function endDryRun(run: DryRun): Promise<void> {
  await run.harness.close();
}

/** The event a user typed, or a usage error with a suggestion. */
export function parseEvent(name: string): HookEventName {
  if (isHookEventName(name)) return name;
  const s = suggest(name, HOOK_EVENT_NAMES, { aliases: FOREIGN_EVENT_ALIASES });
  throw CliError.usage(`unknown event \`${line(name, 48)}\`${s ? `; did you mean \`${s}\`?` : ''}`, '`codewhale hooks events` lists the 15 events');
}

/** `--mode`, canonical; a usage error for anything else. */
export function parseModeOption(value: string | undefined, fallback: CanonicalMode, parse: (v: string) => CanonicalMode | null): CanonicalMode {
  if (value === undefined) return fallback;
  const mode = parse(value);
  if (!mode) throw CliError.usage(`unknown mode \`${line(value, 48)}\``, 'use plan, work or operate (act, agent, auto and yolo mean work)');
  return mode;
}

/** `--input`: a JSON object, inline or `@file`. */
export function parseInputOption(value: string | undefined, io: Io): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let text = value;
  if (value.startsWith('@')) {
    // A regular file within its cap, checked without blocking (a FIFO is refused, never waited on).
    text = readInputText(resolve(io.cwd, value.slice(1)), '--input file');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const why = line((e as Error).message, 120);
    throw CliError.usage(`--input is not valid JSON (${why})`, `pass the tool input as a JSON object, e.g. --input '{"command":"ls"}', or --input @file.json`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw CliError.usage('--input must be a JSON object (a tool input), not an array or a scalar', `e.g. --input '{"command":"ls"}'`);
  }
  return parsed as Record<string, unknown>;
}

/** Whether one configured hook takes part in this firing, and why not. */
export interface HookMatch {
  readonly hook: HookDefinition;
  readonly matched: boolean;
  readonly reason: string | null;
}

/** Every hook of the set against this firing: matched (right event, enabled, condition holds), or why not. */
export function matchTable(set: HookSet, ctx: HookContext): HookMatch[] {
  return set.hooks.map((hook): HookMatch => {
    if (!set.enabled) return { hook, matched: false, reason: 'hooks are globally disabled' };
    if (hook.event !== ctx.event) return { hook, matched: false, reason: `event is \`${hook.event}\`` };
    if (!matchCondition(hook.condition, ctx)) return { hook, matched: false, reason: explainMismatch(hook.condition!, ctx) };
    return { hook, matched: true, reason: null };
  });
}

/** The tags after a hook's name: `[project]`, `[strict]`, `[bg]`. */
export function hookTags(hook: HookDefinition): string {
  const tags: string[] = [];
  if (hook.source === 'project') tags.push('project');
  if (isStrictHook(hook)) tags.push('strict');
  if (hook.runsInBackground) tags.push('bg');
  return tags.length ? ` [${tags.join(', ')}]` : '';
}

/** `gate (config.toml:4) [strict]`. */
export function hookName(hook: HookDefinition): string {
  return `${hook.label} (${origin(hook.origin)})${hookTags(hook)}`;
}

const EXIT_HINTS: Record<number, string> = { 126: 'not executable?', 127: 'command not found?' };

/** `[exit 2, 14 ms]`, `[no exit code, 1003 ms]`. */
export function timing(exitCode: number | null, durationMs: number): string {
  const hint = exitCode !== null && EXIT_HINTS[exitCode] ? ` \u2014 ${EXIT_HINTS[exitCode]}` : '';
  return `[${exitCode === null ? 'no exit code' : `exit ${exitCode}${hint}`}, ${durationMs} ms]`;
}

/** An observer-style outcome in words: ok, failed with an exit code, or why it produced none. */
export function outcomeText(o: HookOutcome): { kind: 'ok' | 'failed' | 'submitted'; text: string } {
  if (o.background) return o.success ? { kind: 'submitted', text: 'submitted in the background (not awaited)' } : { kind: 'failed', text: `not submitted \u2014 ${outcomeDetail(o)}` };
  if (o.success) return { kind: 'ok', text: 'ok' };
  if (o.exitCode !== null) return { kind: 'failed', text: 'failed' };
  return { kind: 'failed', text: `failed \u2014 ${outcomeDetail(o)}` };
}

/** The rows of the hooks table for every hook that did not match. */
export function unmatchedLines(table: readonly HookMatch[]): string[] {
  return table.filter((m) => !m.matched).map((m) => `  - ${hookName(m.hook)}: not matched \u2014 ${m.reason}`);
}

/** JSON rows for the hooks table. */
export function matchTableJson(table: readonly HookMatch[]): Record<string, unknown>[] {
  return table.map((m) => ({
    index: m.hook.index,
    label: m.hook.label,
    event: m.hook.event,
    source: m.hook.source,
    line: m.hook.origin.line,
    strict: isStrictHook(m.hook),
    background: m.hook.runsInBackground,
    effective_timeout_secs: m.hook.effectiveTimeoutSecs,
    matched: m.matched,
    reason: m.reason,
  }));
}

/** Lines about what the configuration leaves out: rejected entries, unloaded project hooks. */
export function configurationNotes(config: HookConfiguration): string[] {
  return hookConfigurationNotes(config, 'run');
}

/** The logger's records, safe to show (labels, events, exit codes, fixed details — never output). */
export function diagnosticsJson(logger: MemoryLogger): { message: string; fields: Record<string, string | number | boolean | null> }[] {
  return logger.records.map((r) => ({
    message: sanitizeLine(r.message, 240).text,
    fields: Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, typeof v === 'string' ? sanitizeLine(v, 240).text : v])),
  }));
}

export function diagnosticsLines(logger: MemoryLogger): string[] {
  return diagnosticsJson(logger).map((d) => {
    const fields = Object.entries(d.fields).map(([k, v]) => `${k}=${v === null ? 'null' : String(v)}`);
    return `  - warn: ${d.message}${fields.length ? ` (${fields.join(' ')})` : ''}`;
  });
}

/**
 * What the engine's gate chain says around the hooks, in words: why a call would never reach
 * them (unknown tool, input the tool rejects, Plan mode), or why a session would block it after
 * them (a rewrite the tool rejects, a typed rule). The decision comes from the same
 * `planToolCall` a session runs.
 */
export function planNotes(name: string, dry: DryRunCall): string[] {
  const shown = `\`${line(name, 64)}\``;
  const p = dry.plan;
  if (p.kind !== 'blocked') return [];
  switch (p.stage) {
    case 'lookup':
      return [`${shown} is not a built-in tool (${BUILTIN_TOOLS.map((t) => t.name).join(', ')}); a session without it refuses the call before any hook runs`];
    case 'parse':
      return ['the arguments are not valid JSON; the engine refuses the call before any hook runs'];
    case 'mode':
      return [`in Plan mode the engine refuses ${shown} before any hook runs`];
    case 'schema':
      return [`the engine refuses this input before any hook runs: invalid input for ${shown}: ${line(p.issues ?? '', 400)}`];
    case 'rewrite':
      return [`the rewritten input is not accepted by ${shown} (${line(p.issues ?? '', 400)}); the engine would block the call`];
    case 'permissions':
      return [`${line(p.error.message, 200)}; the engine would block the call`];
    default:
      return [];
  }
}
