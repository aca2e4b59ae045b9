import type { HookEventName } from '@codewhale/hooks-payloads';
import { CliError } from '../cli-error.js';
import type { CommonOptions } from '../common-options.js';
import { line } from '../render.js';

export interface HooksTestOptions extends CommonOptions {
  readonly tool?: string;
  readonly input?: string;
  readonly text?: string;
  readonly mode?: string;
  readonly exitCode?: number;
  readonly error?: string;
  readonly reason?: string;
  readonly replay?: string;
  readonly showValues?: boolean;
  readonly expect?: string;
  readonly json?: boolean;
}

/** What `--expect` can name, per event (and for `--replay`, which is `tool_call_before`). */
export const EXPECTATIONS: Partial<Record<HookEventName, readonly string[]>> = {
  tool_call_before: ['allow', 'deny', 'ask'],
  message_submit: ['replaced', 'unchanged', 'blocked'],
};

/** Check `--expect` against the event before anything runs. */
export function checkExpect(event: HookEventName, expect: string | undefined): string | null {
  if (expect === undefined) return null;
  const allowed = EXPECTATIONS[event];
  if (!allowed) throw CliError.usage(`--expect does not apply to ${event}`, '--expect checks tool_call_before (allow, deny, ask) and message_submit (replaced, unchanged, blocked)');
  const value = expect.trim().toLowerCase();
  if (!allowed.includes(value)) throw CliError.usage(`--expect for ${event} is one of ${allowed.join(', ')}, got \`${line(expect, 48)}\``);
  return value;
}
