import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadHookConfiguration, resolvePaths, type CodewhalePaths, type HookConfiguration } from '@codewhale/hooks-supervisor';
import { CliError } from './cli-error.js';
import type { Io } from './io.js';
import type { CommonOptions } from './common-options.js';

/** Where a command works: the canonical workspace and Codewhale's paths. */
export interface CommandContext {
  readonly workspace: string;
  readonly paths: CodewhalePaths;
}

export function commandContext(opts: CommonOptions, io: Io): CommandContext {
  const raw = resolve(io.cwd, opts.workspace ?? '.');
  let workspace: string;
  try {
    workspace = realpathSync(raw);
    if (!statSync(workspace).isDirectory()) throw new Error('not a directory');
  } catch {
    throw CliError.usage(`the workspace is not a directory: ${raw}`, 'pass an existing directory with --workspace');
  }
  const paths = resolvePaths(io.env, opts.config ? resolve(io.cwd, opts.config) : null);
  return { workspace, paths };
}

/**
 * Load the hook configuration every surface shares: global hooks plus the workspace's project
 * hooks when trusted and approved. A TOML syntax error in the user's config stops the command
 * with the file, line and column.
 */
export function loadConfiguration(ctx: CommandContext): HookConfiguration {
  let r: ReturnType<typeof loadHookConfiguration>;
  try {
    r = loadHookConfiguration({ paths: ctx.paths, workspace: ctx.workspace });
  } catch (e) {
    throw CliError.config(`cannot read ${ctx.paths.configPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!r.ok) {
    throw CliError.config(r.issues[0]!.summary, 'fix the file (it was not changed), then run `codewhale hooks validate`');
  }
  return r.value;
}
