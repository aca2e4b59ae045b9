import { decodeProjectFile } from './decode-project-file.js';
import { PROJECT_HOOKS_RELATIVE_PATH } from './project-hooks-path.js';
import { parseToml } from './parse-toml.js';
import { readProjectHooksSection, type HooksSection } from './hooks-section.js';
import { projectFileProblem } from './problem.js';
import { scanTomlLayout } from './toml-layout.js';

/**
 * Parse a project `hooks.toml` from its exact bytes. Never fails: a file over 1 MiB, not
 * UTF-8, or with a TOML syntax error yields no entries and one warning (D8: the project hooks
 * are skipped, global hooks still load). The warning names line and column, never content.
 */
export function parseProjectHooks(bytes: Uint8Array, file = PROJECT_HOOKS_RELATIVE_PATH): HooksSection {
  const decoded = decodeProjectFile(bytes, file);
  if (!decoded.ok) return skippedProjectHooks(file, 'project_file_unreadable', decoded.issues[0]!.message, null);
  const parsed = parseToml(decoded.value, file);
  if (!parsed.ok) {
    const issue = parsed.issues[0]!;
    return skippedProjectHooks(file, 'toml_syntax', `TOML syntax error at line ${issue.line ?? '?'}, column ${issue.column ?? '?'}: ${issue.message}`, issue.line);
  }
  return readProjectHooksSection(parsed.value, scanTomlLayout(decoded.value), file);
}

/**
 * No project hooks, and one warning saying why (`…; project hooks were skipped`): for a file
 * that cannot be decoded or parsed, or, from the caller, one that is not a regular file.
 */
export function skippedProjectHooks(file: string, code: 'toml_syntax' | 'project_file_unreadable', detail: string, line: number | null = null): HooksSection {
  return {
    source: 'project',
    file,
    configured: false,
    enabled: true,
    defaultTimeoutSecs: null,
    workingDir: null,
    entries: [],
    problems: [projectFileProblem(code, `${detail}; project hooks were skipped`, { file, line })],
  };
}
