import { setWorkspaceTrust } from '@codewhale/hooks-config';
import { loadHookConfiguration } from '@codewhale/hooks-supervisor';
import { CliError } from '../cli-error.js';
import { commandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { CommonOptions } from '../common-options.js';
import { editUserConfig } from '../user-config-file.js';

/**
 * `codewhale trust` / `codewhale untrust`: write or remove `trust_level = "trusted"` under
 * `[projects."<canonical workspace>"]` in the user's config.toml, keeping every other byte.
 * Trust alone never enables project hooks: they also need `codewhale hooks approve`.
 */
export async function runTrust(trusted: boolean, opts: CommonOptions, io: Io): Promise<number> {
  const ctx = commandContext(opts, io);
  const cfg = editUserConfig(ctx.paths.configPath, (text) => {
    const r = setWorkspaceTrust(text, ctx.workspace, trusted);
    if (!r.ok) {
      const e = r.issues[0]!;
      throw e.code === 'config_unparseable' ? CliError.config(e.message, 'fix config.toml first (it was not changed)') : new CliError(`${e.message}; config.toml was not changed`);
    }
    return r.value;
  });
  if (!cfg.changed) {
    io.stdout(`${ctx.workspace} is already ${trusted ? 'trusted' : 'not trusted'}; ${cfg.path} unchanged\n`);
  } else {
    io.stdout(trusted ? `trusted ${ctx.workspace} \u2014 wrote trust_level = "trusted" to ${cfg.path}\n` : `untrusted ${ctx.workspace} \u2014 removed trust_level from ${cfg.path}\n`);
  }
  if (trusted) {
    // Trust is one of two gates: say what the other one is doing.
    const loaded = loadHookConfiguration({ paths: ctx.paths, workspace: ctx.workspace });
    const unreadable = loaded.ok ? loaded.value.loaded.set.problems.find((p) => p.source === 'project' && p.code === 'project_file_unreadable') : undefined;
    if (unreadable) io.stderr(`warning: ${unreadable.detail}\n`);
    const state = loaded.ok ? (loaded.value.loaded.project?.state ?? 'none') : 'none';
    if (state !== 'none' && state !== 'approved') {
      io.stderr(
        `note: project hooks are ${state === 'changed' ? 'changed since approval' : state === 'pending' ? 'pending approval' : state}; they load only after \`codewhale hooks review\` and \`codewhale hooks approve <digest>\`\n`,
      );
    }
  }
  return EXIT.ok;
}
