#!/usr/bin/env node
// A Claude Code PostToolUse logger: appends one JSON line per settled tool call to
// $CLAUDE_PROJECT_DIR/.claude/tool-log.jsonl. In Codewhale: event = "tool_call_after",
// protocol = "claude-code". Observers cannot change what the agent does.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
const input = JSON.parse(stdin);
const dir = join(process.env.CLAUDE_PROJECT_DIR ?? input.cwd, '.claude');
mkdirSync(dir, { recursive: true });
const line = {
  event: input.hook_event_name,
  session_id: input.session_id,
  tool_name: input.tool_name,
  tool_input: input.tool_input,
  tool_use_id: input.tool_use_id,
  success: input.tool_response?.success ?? null,
  permission_mode: input.permission_mode,
};
appendFileSync(join(dir, 'tool-log.jsonl'), `${JSON.stringify(line)}\n`);
