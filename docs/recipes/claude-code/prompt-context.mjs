#!/usr/bin/env node
// A Claude Code UserPromptSubmit hook: blocks a prompt that carries a password, and otherwise
// adds a line of project context for the model (`hookSpecificOutput.additionalContext`).
// In Codewhale: event = "message_submit", protocol = "claude-code".
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
const input = JSON.parse(stdin);
if (/password\s*[:=]/i.test(input.prompt ?? '')) {
  process.stdout.write(`${JSON.stringify({ decision: 'block', reason: 'the prompt seems to contain a password; remove it and send again' })}\n`);
  process.exit(0);
}
process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'Project rule: run the tests before committing.' } })}\n`);
