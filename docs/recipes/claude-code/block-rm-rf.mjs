#!/usr/bin/env node
// A Claude Code PreToolUse gate, unchanged: it reads the peer's JSON document on stdin and
// blocks `rm -rf` by exiting 2 with the reason on stderr. In Codewhale:
//   [[hooks.hooks]]
//   name = "block-rm-rf"
//   event = "tool_call_before"
//   protocol = "claude-code"
//   command = "node \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/block-rm-rf.mjs"
//   condition = { type = "tool_name", name = "Bash" }
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
const input = JSON.parse(stdin);
const command = input.tool_name === 'Bash' ? String(input.tool_input?.command ?? '') : '';
if (/\brm\s+-[a-zA-Z]*r[a-zA-Z]*f|\brm\s+-[a-zA-Z]*f[a-zA-Z]*r/.test(command)) {
  process.stderr.write('Blocked: rm -rf is not allowed in this project\n');
  process.exit(2);
}
process.exit(0);
