#!/usr/bin/env node
// tool_call_before rewrite: add --dry-run to any deploy the agent starts.
// `updatedInput` replaces the tool input; Codewhale validates it against the tool's schema.
const input = JSON.parse(process.env.DEEPSEEK_TOOL_ARGS || '{}');
const command = typeof input.command === 'string' ? input.command : '';
if (/\bdeploy\.sh\b/.test(command) && !/--dry-run\b/.test(command)) {
  console.log(
    JSON.stringify({
      decision: 'allow',
      updatedInput: { ...input, command: `${command} --dry-run` },
      additionalContext: 'Deploys started by the agent run with --dry-run; a human runs the real deploy.',
    }),
  );
}
