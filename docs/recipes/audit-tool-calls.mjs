#!/usr/bin/env node
// Recipe: an audit log (tool_call_after, background).
//   [[hooks.hooks]]
//   name = "audit"
//   event = "tool_call_after"
//   command = "node ~/.codewhale/hooks/audit-tool-calls.mjs"
//   background = true            # submitted, never awaited: the turn never waits for it
//
// Appends one JSON line per settled tool call to $CODEWHALE_AUDIT_FILE (default
// ~/.codewhale/tool-calls.jsonl). For shell calls it records what really ran — the execution
// receipt (after any hook rewrite) — from the stdin document.
import { appendFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
let receipt = null;
try {
  receipt = stdin.trim() ? (JSON.parse(stdin).execution_receipt ?? null) : null;
} catch {
  receipt = null;
}
const env = process.env;
const record = {
  ts: new Date().toISOString(),
  session: env.DEEPSEEK_SESSION_ID ?? null,
  call: env.DEEPSEEK_TOOL_CALL_ID ?? null,
  tool: env.DEEPSEEK_TOOL_NAME ?? null,
  success: env.DEEPSEEK_TOOL_SUCCESS === 'true',
  exit_code: env.DEEPSEEK_TOOL_EXIT_CODE === undefined ? null : Number(env.DEEPSEEK_TOOL_EXIT_CODE),
  status: env.DEEPSEEK_TOOL_STATUS ?? null,
  command: receipt?.command ?? null,
  cwd: receipt?.cwd ?? null,
};
appendFileSync(env.CODEWHALE_AUDIT_FILE || join(homedir(), '.codewhale', 'tool-calls.jsonl'), `${JSON.stringify(record)}\n`);
