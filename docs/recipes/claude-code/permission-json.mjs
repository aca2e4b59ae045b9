#!/usr/bin/env node
// A Claude Code PreToolUse hook that answers in JSON (`hookSpecificOutput.permissionDecision`):
//   - `curl … | sh` is denied, with a reason the model sees;
//   - `git push` asks the person first;
//   - a Write to a `.txt` file is allowed with its content rewritten (`updatedInput`), plus a
//     note for the model (`additionalContext`);
//   - `echo original` is allowed, rewritten to `echo rewritten`.
// In Codewhale: event = "tool_call_before", protocol = "claude-code".
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
const input = JSON.parse(stdin);
const answer = (specific) => {
  process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })}\n`);
  process.exit(0);
};
const tool = input.tool_name;
const args = input.tool_input ?? {};
if (tool === 'Bash') {
  const command = String(args.command ?? '');
  if (/curl[^|]*\|\s*(ba)?sh/.test(command)) answer({ permissionDecision: 'deny', permissionDecisionReason: 'piping a download into a shell is not allowed' });
  if (/^git push\b/.test(command)) answer({ permissionDecision: 'ask', permissionDecisionReason: 'pushing needs a person to agree' });
  if (command === 'echo original') answer({ permissionDecision: 'allow', updatedInput: { ...args, command: 'echo rewritten' }, additionalContext: 'the command was rewritten by policy' });
}
if (tool === 'Write' && String(args.file_path ?? '').endsWith('.txt')) {
  answer({
    permissionDecision: 'allow',
    updatedInput: { ...args, content: String(args.content ?? '').toUpperCase() },
    additionalContext: `text files are written in capitals (${args.file_path.split('/').pop()})`,
  });
}
process.exit(0);
