import type { Command } from 'commander';
import { HOOK_EVENT_NAMES } from '@codewhale/hooks-payloads';
import { CliError } from '../cli-error.js';
import { COMPLETION_SHELLS, completionScript, type CompletionNode, type CompletionShell } from '../completion-script.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';

/** Values completed for a command's first argument, by command path. */
const ARGUMENT_VALUES: Record<string, readonly string[]> = {
  'hooks test': HOOK_EVENT_NAMES,
  completion: COMPLETION_SHELLS,
};

function tree(cmd: Command, path = ''): CompletionNode {
  return {
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: cmd.description().split('\n')[0] ?? '',
    options: [
      ...cmd.options.filter((o) => !o.hidden).map((o) => ({ flags: [o.long, o.short].filter((f): f is string => Boolean(f)), description: o.description })),
      { flags: ['--help', '-h'], description: 'show help' },
    ],
    values: ARGUMENT_VALUES[path] ?? [],
    commands: cmd.commands.map((c) => tree(c, path ? `${path} ${c.name()}` : c.name())),
  };
}

/** `codewhale completion SHELL`: print the completion script for bash, zsh or fish. */
export function runCompletion(shell: string, program: Command, io: Io): number {
  if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
    throw CliError.usage(`unknown shell \`${shell.replace(/[^\x20-\x7e]/g, '?').slice(0, 32)}\``, `use one of: ${COMPLETION_SHELLS.join(', ')}`);
  }
  io.stdout(completionScript(shell as CompletionShell, tree(program), ['codewhale', 'codew']));
  return EXIT.ok;
}
