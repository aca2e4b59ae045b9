import { basename, resolve } from 'node:path';
import { buildHookSet, decodeProjectFile, parseProjectHooks, parseToml, parseUserConfig, type ConfigProblem, type FileIssue, type HookSet, type HooksSection } from '@codewhale/hooks-config';
import { USER_CONFIG_MAX_BYTES } from '@codewhale/hooks-supervisor';
import { CliError } from '../cli-error.js';
import { readInputFile } from '../read-input-file.js';
import { commandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { CommonOptions } from '../common-options.js';
import { line, plural, printJson } from '../render.js';

export interface HooksValidateOptions extends CommonOptions {
  readonly json?: boolean;
}

/** Which shape a file is checked as. */
type FileKind = 'config' | 'project';

const KIND_TEXT: Record<FileKind, string> = {
  config: 'a config.toml (`[hooks]` table, `[[hooks.hooks]]` entries)',
  project: 'a project hooks.toml (`[[hooks]]` entries)',
};

/** A neutral user `[hooks]` section, so a hooks.toml is judged on its own. */
const NO_GLOBAL_HOOKS: HooksSection = {
  source: 'global',
  file: '',
  configured: false,
  enabled: true,
  defaultTimeoutSecs: null,
  workingDir: null,
  entries: [],
  problems: [],
};

/**
 * Decide the shape: `[hooks]` as a table is a config.toml, `[[hooks]]` (an array) a project
 * hooks.toml; a file with neither is judged by its name. The user's own config (no FILE) is
 * always a config.toml, so a `[[hooks]]` written there is reported, not reinterpreted.
 */
function detectKind(doc: Record<string, unknown>, file: string, isUserConfig: boolean): FileKind {
  if (isUserConfig) return 'config';
  const hooks = doc['hooks'];
  if (Array.isArray(hooks)) return 'project';
  if (hooks !== undefined && typeof hooks === 'object' && hooks !== null) return 'config';
  return basename(file) === 'hooks.toml' ? 'project' : 'config';
}

/** Rejected hook entries (each counted once, however many problems it has) and rejected settings. */
function counts(set: HookSet): { valid: number; rejected: number; rejectedSettings: number; warnings: number } {
  const entries = new Set<string>();
  let rejectedSettings = 0;
  let warnings = 0;
  for (const p of set.problems) {
    if (p.severity === 'warning') warnings++;
    else if (p.entry !== null) entries.add(`${p.source ?? ''}:${p.entry}`);
    else rejectedSettings++;
  }
  return { valid: set.hooks.length, rejected: entries.size, rejectedSettings, warnings };
}

function problemLine(p: ConfigProblem, fallbackFile: string): string {
  const file = line(p.file || fallbackFile);
  return `${p.line === null ? file : `${file}:${p.line}`}: ${p.summary}`;
}

function syntaxError(issue: FileIssue, opts: HooksValidateOptions, io: Io, kind: FileKind | null): never {
  if (opts.json) {
    printJson(io, {
      file: issue.file,
      kind,
      ok: false,
      error: { code: issue.code, line: issue.line, column: issue.column, message: issue.message },
      hooks: [],
      problems: [],
      summary: null,
    });
  }
  throw CliError.config(issue.summary, 'nothing in this file can load until it is fixed');
}

/**
 * `codewhale hooks validate [FILE]`: check a config.toml or a project hooks.toml with the same
 * rules the loader applies, and print every problem with its file and line, then one summary
 * line. Exit 1 when anything was rejected (a hook entry, or a `[hooks]` setting that is
 * therefore ignored), 3 when the file cannot be read or is not TOML, else 0.
 */
export async function runHooksValidate(file: string | undefined, opts: HooksValidateOptions, io: Io): Promise<number> {
  const ctx = commandContext(opts, io);
  const isUserConfig = file === undefined;
  const path = isUserConfig ? ctx.paths.configPath : resolve(io.cwd, file);

  const read = readInputFile(path, isUserConfig ? 'the config' : 'the file', { allowMissing: true, maxBytes: USER_CONFIG_MAX_BYTES });
  if (read === null) {
    if (isUserConfig) {
      if (opts.json) printJson(io, { file: path, kind: 'config', ok: true, exists: false, hooks: [], problems: [], summary: { valid: 0, rejected: 0, rejected_settings: 0, warnings: 0 } });
      else io.stdout(`${line(path)} does not exist: no hooks are configured, nothing to check.\n`);
      return EXIT.ok;
    }
    throw CliError.config(`cannot read ${path}: ENOENT`, 'check the path');
  }
  const bytes = Buffer.from(read.buffer, read.byteOffset, read.length);

  // The loader reads config.toml as (lossy) UTF-8 and a project file strictly: judge each the same way.
  const text = bytes.toString('utf8');
  const doc = parseToml(text.replace(/^\uFEFF/, ''), path);
  if (!doc.ok) syntaxError(doc.issues[0]!, opts, io, null);
  const kind = detectKind(doc.value, path, isUserConfig);

  let set: HookSet;
  if (kind === 'config') {
    const parsed = parseUserConfig(text, path);
    if (!parsed.ok) syntaxError(parsed.issues[0]!, opts, io, kind);
    set = buildHookSet(parsed.value.hooks);
  } else {
    const decoded = decodeProjectFile(bytes, path);
    if (!decoded.ok) syntaxError(decoded.issues[0]!, opts, io, kind);
    set = buildHookSet(NO_GLOBAL_HOOKS, parseProjectHooks(bytes, path));
  }

  const c = counts(set);
  const failed = c.rejected > 0 || c.rejectedSettings > 0;
  const summary = `${plural(c.valid, 'hook')} valid, ${c.rejected} rejected${c.rejectedSettings ? ` (and ${plural(c.rejectedSettings, 'setting')} rejected)` : ''}, ${plural(c.warnings, 'warning')}`;
  if (opts.json) {
    printJson(io, {
      file: path,
      kind,
      ok: !failed,
      hooks: set.hooks.map((h) => ({ index: h.index, label: h.label, event: h.event, line: h.origin.line, effective_timeout_secs: h.effectiveTimeoutSecs, timeout_source: h.timeoutSource })),
      problems: set.problems.map((p) => ({
        severity: p.severity,
        code: p.code,
        event: p.event,
        label: p.label,
        detail: p.detail,
        summary: p.summary,
        file: p.file || path,
        line: p.line,
        entry: p.entry,
      })),
      summary: { valid: c.valid, rejected: c.rejected, rejected_settings: c.rejectedSettings, warnings: c.warnings },
    });
  } else {
    let out = `Checking ${line(path)} as ${KIND_TEXT[kind]}\n`;
    for (const p of set.problems) out += `${problemLine(p, path)}\n`;
    out += `${summary}\n`;
    io.stdout(out);
  }
  return failed ? EXIT.failure : EXIT.ok;
}
