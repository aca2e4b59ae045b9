import type { TomlTable } from './parse-toml.js';
import { parseToml } from './parse-toml.js';
import { readGlobalHooksSection, type HooksSection } from './hooks-section.js';
import { scanTomlLayout } from './toml-layout.js';
import { ok, type FileIssue, type Result } from './result.js';

/** The user's config.toml, parsed: the whole document (for `[projects."…"]`) and its hooks part. */
export interface UserConfig {
  readonly file: string;
  readonly document: TomlTable;
  readonly hooks: HooksSection;
}

/**
 * Parse the user's config.toml text. Only a TOML syntax error fails it (a hard error the
 * caller reports with file, line and column); every hooks problem is collected instead.
 */
export function parseUserConfig(text: string, file = 'config.toml'): Result<UserConfig, FileIssue> {
  const parsed = parseToml(text, file);
  if (!parsed.ok) return parsed;
  return ok({ file, document: parsed.value, hooks: readGlobalHooksSection(parsed.value, scanTomlLayout(text), file) });
}
