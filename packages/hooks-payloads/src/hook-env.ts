import type { HookContext } from './context.js';
import { normalizeExitCode } from './context.js';
import { eventSpec, type HookEnvVar } from './events.js';
import { LIMITS } from './limits.js';
import { modeSpellingFor } from './modes.js';
import { truncateBytes } from './bounded.js';
import { toJson, type JsonValue } from './json.js';
import { utf8ByteLength } from './utf8.js';

/** The env var a caller must remove from the inherited environment before applying a hook's own. */
export const INHERITED_VARS_TO_CLEAR: readonly string[] = ['DEEPSEEK_TOOL_EXECUTION_RECEIPT'];

/** An environment value must not contain NUL (no process can receive it); NUL is removed. */
function envSafe(value: string): string {
  return value.includes('\0') ? value.replace(/\0/g, '') : value;
}

function bounded(value: string, maxBytes: number): string {
  return envSafe(truncateBytes(value, maxBytes).text);
}

/** Compact JSON of a tool input for `DEEPSEEK_TOOL_ARGS`; a string input is exported as is. */
export function toolArgsJson(input: unknown): string {
  if (input === undefined) return '{}';
  if (typeof input === 'string') return input;
  try {
    return toJson(input as JsonValue);
  } catch {
    return '{}';
  }
}

/**
 * The `DEEPSEEK_*` variables (and their `CODEWHALE_*` twins for the session and call ids) a
 * hook for `ctx.event` receives, in a stable order. A variable is present only when the event
 * carries it and its value is known: an exit code is never synthesized, `shell_env` gets only
 * the tool name and arguments. Values are bounded (5,000 / 10,000 / 4,096 bytes with
 * `...[truncated]`, truncated once) and never contain NUL.
 */
export function buildHookEnv(ctx: HookContext): Record<string, string> {
  const spec = eventSpec(ctx.event);
  const wants = new Set<HookEnvVar>(spec.env);
  const env: Record<string, string> = {};
  const meta = LIMITS.envMetadataMaxBytes;
  const tool = ctx.tool ?? null;
  const set = (key: HookEnvVar, value: string | null | undefined, maxBytes: number = meta): void => {
    if (!wants.has(key) || value == null) return;
    env[key] = bounded(value, maxBytes);
  };

  set('DEEPSEEK_SESSION_ID', ctx.sessionId);
  set('DEEPSEEK_WORKSPACE', ctx.workspace);
  set('DEEPSEEK_MODEL', ctx.model);
  set('DEEPSEEK_MODE', ctx.mode == null ? null : modeSpellingFor(spec.firedBy, ctx.mode));
  if (ctx.totalTokens != null && Number.isFinite(ctx.totalTokens)) {
    set('DEEPSEEK_TOTAL_TOKENS', String(Math.max(0, Math.trunc(ctx.totalTokens))));
  }
  if (ctx.sessionCost != null && Number.isFinite(ctx.sessionCost)) {
    set('DEEPSEEK_SESSION_COST', ctx.sessionCost.toFixed(6));
  }
  set('DEEPSEEK_MESSAGE', ctx.message, LIMITS.envMessageMaxBytes);
  set('DEEPSEEK_ERROR', ctx.error, LIMITS.envErrorMaxBytes);
  set('DEEPSEEK_PREVIOUS_MODE', ctx.previousMode == null ? null : modeSpellingFor('ui', ctx.previousMode));
  if (tool) {
    set('DEEPSEEK_TOOL_NAME', tool.name);
    set('DEEPSEEK_TOOL_CALL_ID', tool.callId);
    set('DEEPSEEK_TOOL_ARGS', toolArgsJson(tool.input), LIMITS.envToolArgsMaxBytes);
    set('DEEPSEEK_TOOL_RESULT', tool.result, LIMITS.envToolResultMaxBytes);
    if (tool.success != null) set('DEEPSEEK_TOOL_SUCCESS', tool.success ? 'true' : 'false');
    const code = normalizeExitCode(tool.exitCode);
    if (code !== null) set('DEEPSEEK_TOOL_EXIT_CODE', code.toString());
    set('DEEPSEEK_TOOL_STATUS', tool.status);
    // Exact or absent: a receipt that is over its bound is dropped, never cut.
    if (wants.has('DEEPSEEK_TOOL_EXECUTION_RECEIPT') && tool.executionReceipt != null) {
      const receipt = tool.executionReceipt;
      if (!receipt.includes('\0') && utf8ByteLength(receipt) <= LIMITS.receiptMaxBytes) {
        env.DEEPSEEK_TOOL_EXECUTION_RECEIPT = receipt;
      }
    }
  }
  if (env.DEEPSEEK_SESSION_ID !== undefined) env.CODEWHALE_SESSION_ID = env.DEEPSEEK_SESSION_ID;
  if (env.DEEPSEEK_TOOL_CALL_ID !== undefined) env.CODEWHALE_TOOL_CALL_ID = env.DEEPSEEK_TOOL_CALL_ID;
  return env;
}
