import { buildHooksList, hooksListToJson, renderHooksList } from '@codewhale/hooks-config';
import { commandContext, loadConfiguration } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { CommonOptions } from '../common-options.js';
import { printJson } from '../render.js';

/**
 * `codewhale hooks list`: the shared `hooks list` model for the workspace — hooks by event with
 * the timeout the runtime applies, conditions, 60-char command previews, configuration
 * problems and the project hooks' approval state. Text, or snake_case JSON with `--json`.
 */
export async function runHooksList(opts: CommonOptions & { json?: boolean }, io: Io): Promise<number> {
  const ctx = commandContext(opts, io);
  const config = loadConfiguration(ctx);
  const list = buildHooksList(config.loaded.set, config.loaded.project);
  if (opts.json) printJson(io, { ...hooksListToJson(list), hook_set_digest: config.digest });
  else io.stdout(`${renderHooksList(list)}\n`);
  return EXIT.ok;
}
