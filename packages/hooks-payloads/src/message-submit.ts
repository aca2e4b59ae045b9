import { LIMITS } from './limits.js';
import { codePointLength } from './utf8.js';
import { isJsonObject } from './json.js';
import { sanitizeDenialReason } from './denial-reason.js';
import { NO_VERDICT_DETAIL } from './generic-detail.js';
import { isStrict } from './is-strict.js';
import { observedExitCode, outcomeDetail, type HookIdentity, type HookOutcome } from './outcome.js';
import { readPeerPromptAnswer } from './peer-protocol.js';
import { sanitizeText } from './sanitize.js';

/** What one `message_submit` hook's stdout (exit 0) means for the text. */
export type MessageSubmitStdout = { readonly kind: 'unchanged' } | { readonly kind: 'replace'; readonly text: string } | { readonly kind: 'invalid'; readonly problem: string };

/**
 * Parse a `message_submit` hook's stdout. Empty stdout, or a JSON object without `text`,
 * leaves the text unchanged; `{"text": "<non-empty, ≤ 32,000 chars>"}` replaces it; anything
 * else is invalid (logged and ignored — invalid stdout never blocks).
 */
export function parseMessageSubmitStdout(stdout: string): MessageSubmitStdout {
  const trimmed = stdout.trim();
  if (trimmed === '') return { kind: 'unchanged' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { kind: 'invalid', problem: 'stdout is not valid JSON' };
  }
  if (!isJsonObject(value)) return { kind: 'invalid', problem: 'stdout JSON is not an object' };
  if (!('text' in value)) return { kind: 'unchanged' };
  const text = value.text;
  if (typeof text !== 'string') return { kind: 'invalid', problem: 'stdout `text` field must be a string' };
  if (text === '') return { kind: 'invalid', problem: 'stdout `text` field must not be empty' };
  if (codePointLength(text) > LIMITS.messageSubmitReplacementMaxChars) {
    return { kind: 'invalid', problem: `stdout \`text\` field exceeds ${LIMITS.messageSubmitReplacementMaxChars} characters` };
  }
  return { kind: 'replace', text };
}

/** The structured `reason` in stdout JSON, redacted, if there is one (even an empty string). */
function structuredReason(stdout: string): string | null {
  try {
    const v = JSON.parse(stdout.trim()) as unknown;
    if (isJsonObject(v) && typeof v.reason === 'string') return sanitizeDenialReason(v.reason);
  } catch {
    // not JSON: unstructured output is never copied into a denial
  }
  return null;
}

/** Where a `message_submit` chain stands after some hooks. */
export interface MessageSubmitChain {
  readonly original: string;
  /** The text the next hook sees. */
  readonly text: string;
  readonly blocked: { readonly reason: string; readonly hook: string } | null;
  /** The newest warning from a lenient failure, for the status line. */
  readonly warning: string | null;
  /** What each hook did, in order. */
  readonly steps: readonly MessageSubmitStep[];
}

export interface MessageSubmitStep {
  readonly index: number;
  readonly label: string;
  readonly result: 'replaced' | 'unchanged' | 'invalid' | 'blocked' | 'failed' | 'submitted';
  /** A fixed or redacted detail; never raw stdout/stderr. */
  readonly detail: string | null;
  /** For a hook speaking a peer protocol: its answer (bounded, redacted) and what of it was ignored. */
  readonly peer?: { readonly protocol: 'claude-code'; readonly answer: string; readonly warnings: readonly string[] };
}

export function startMessageSubmitChain(text: string): MessageSubmitChain {
  return { original: text, text, blocked: null, warning: null, steps: [] };
}

/**
 * Apply one hook's outcome to the chain (hooks run in config order, each seeing the previous
 * hook's text). Exit 2 blocks with the redacted structured reason; another failure warns and
 * continues, or blocks when the hook is strict (`continue_on_error = false`); exit 0 applies
 * the stdout rules. Oversized stdout is a failure, never parsed (D16). A background
 * submission never steers.
 */
export function stepMessageSubmit(chain: MessageSubmitChain, outcome: HookOutcome): MessageSubmitChain {
  if (chain.blocked) return chain;
  const step = (result: MessageSubmitStep['result'], detail: string | null): MessageSubmitStep => ({
    index: outcome.hook.index,
    label: outcome.hook.label,
    result,
    detail,
  });
  if (outcome.background) {
    return { ...chain, steps: [...chain.steps, step('submitted', outcome.success ? null : outcomeDetail(outcome))] };
  }
  if (outcome.hook.protocol === 'claude-code') return stepPeerPrompt(chain, outcome);
  const code = observedExitCode(outcome);
  const parsedReason = outcome.stdoutTruncated || code === null ? null : structuredReason(outcome.stdout);
  if (code === 2) {
    const reason = parsedReason ?? 'message_submit hook blocked submission';
    return { ...chain, blocked: { reason, hook: outcome.hook.label }, steps: [...chain.steps, step('blocked', reason)] };
  }
  if (code !== 0 || outcome.stdoutTruncated) {
    const generic = outcomeDetail(outcome);
    if (outcome.strict) {
      const reason = parsedReason ?? (generic !== NO_VERDICT_DETAIL ? generic : 'message_submit hook failed and blocked submission');
      return { ...chain, blocked: { reason, hook: outcome.hook.label }, steps: [...chain.steps, step('blocked', reason)] };
    }
    const warning = parsedReason ?? (generic !== NO_VERDICT_DETAIL ? generic : code !== null ? `message_submit hook exited with code ${code}` : generic);
    return { ...chain, warning, steps: [...chain.steps, step('failed', warning)] };
  }
  const parsed = parseMessageSubmitStdout(outcome.stdout);
  switch (parsed.kind) {
    case 'unchanged':
      return { ...chain, steps: [...chain.steps, step('unchanged', null)] };
    case 'invalid':
      return { ...chain, steps: [...chain.steps, step('invalid', parsed.problem)] };
    case 'replace':
      // A hook that hands back the text it was given changed nothing.
      if (parsed.text === chain.text) return { ...chain, steps: [...chain.steps, step('unchanged', null)] };
      return { ...chain, text: parsed.text, steps: [...chain.steps, step('replaced', null)] };
  }
}

/** The marker that starts context a hook adds to the submitted text (the same as on a tool result). */
export const HOOK_CONTEXT_MARKER = '[hook context]';

/**
 * One peer-protocol (`claude-code`) hook's outcome on the chain. Its answer is read by
 * {@link readPeerPromptAnswer}: a block blocks (the reason redacted like any block reason);
 * context for the model is appended to the text as `\n\n[hook context] …` (bounded at 8,000
 * characters), which is how a replacement reaches the model on every surface; the next hook
 * sees the text with it. A failure follows `continue_on_error` as for any hook.
 */
function stepPeerPrompt(chain: MessageSubmitChain, outcome: HookOutcome): MessageSubmitChain {
  const code = observedExitCode(outcome);
  const a = code === null ? null : readPeerPromptAnswer(outcome);
  const peer = a ? { protocol: 'claude-code' as const, answer: a.answer, warnings: a.warnings } : undefined;
  const step = (result: MessageSubmitStep['result'], detail: string | null): MessageSubmitStep =>
    peer ? { index: outcome.hook.index, label: outcome.hook.label, result, detail, peer } : { index: outcome.hook.index, label: outcome.hook.label, result, detail };
  if (a === null || a.kind === 'failed') {
    const generic = outcomeDetail(outcome);
    const reason = generic !== NO_VERDICT_DETAIL ? generic : code !== null ? `message_submit hook exited with code ${code}` : generic;
    if (outcome.strict) return { ...chain, blocked: { reason, hook: outcome.hook.label }, steps: [...chain.steps, step('blocked', reason)] };
    return { ...chain, warning: reason, steps: [...chain.steps, step('failed', reason)] };
  }
  if (a.kind === 'block') {
    const reason = a.reason !== null ? sanitizeDenialReason(a.reason) : 'message_submit hook blocked submission';
    return { ...chain, blocked: { reason, hook: outcome.hook.label }, steps: [...chain.steps, step('blocked', reason)] };
  }
  if (a.kind === 'none') return { ...chain, steps: [...chain.steps, step('unchanged', null)] };
  const suffix = `\n\n${HOOK_CONTEXT_MARKER} ${sanitizeText(a.context, LIMITS.contextMaxChars).text}`;
  if (codePointLength(chain.text) + codePointLength(suffix) > LIMITS.messageSubmitReplacementMaxChars) {
    return { ...chain, steps: [...chain.steps, step('invalid', `the text with the hook's context would exceed ${LIMITS.messageSubmitReplacementMaxChars} characters; context dropped`)] };
  }
  return { ...chain, text: chain.text + suffix, steps: [...chain.steps, step('replaced', 'added context')] };
}

/** The chain's result: the text is sent as `replaced` or `unchanged`, or not at all. */
export type MessageSubmitResult =
  | { readonly kind: 'replaced'; readonly text: string; readonly warning: string | null; readonly steps: readonly MessageSubmitStep[] }
  | { readonly kind: 'unchanged'; readonly text: string; readonly warning: string | null; readonly steps: readonly MessageSubmitStep[] }
  | { readonly kind: 'blocked'; readonly reason: string; readonly steps: readonly MessageSubmitStep[] };

/** Finish a chain. A replacement equal to the original counts as `unchanged`. */
export function finishMessageSubmit(chain: MessageSubmitChain): MessageSubmitResult {
  if (chain.blocked) return { kind: 'blocked', reason: chain.blocked.reason, steps: chain.steps };
  if (chain.text !== chain.original) return { kind: 'replaced', text: chain.text, warning: chain.warning, steps: chain.steps };
  return { kind: 'unchanged', text: chain.text, warning: chain.warning, steps: chain.steps };
}

/** Fold a whole list of outcomes (for callers that already ran every hook). */
export function foldMessageSubmit(text: string, outcomes: readonly HookOutcome[]): MessageSubmitResult {
  return finishMessageSubmit(outcomes.reduce(stepMessageSubmit, startMessageSubmitChain(text)));
}

/**
 * The result when the executor was lost before the chain finished: blocked when any matched
 * foreground hook was strict (a strict gate fails closed), otherwise the text goes through
 * unchanged with a warning.
 */
export function lostMessageSubmit(text: string, matched: readonly HookIdentity[]): MessageSubmitResult {
  if (matched.some(isStrict)) {
    return { kind: 'blocked', reason: 'message_submit hook executor did not run; a strict gate blocked submission', steps: [] };
  }
  return {
    kind: 'unchanged',
    text,
    warning: 'message_submit hook executor did not run; submission continued because no strict gate matched',
    steps: [],
  };
}
