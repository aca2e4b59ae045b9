import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  appendHookEntries,
  describePeerOrigin,
  importPeerHooks,
  jsonSyntaxError,
  parseToml,
  parseUserConfig,
  PEER_LABEL,
  projectHooksFile,
  type HooksFileShape,
  type ImportedHook,
  type ImportScope,
  type PeerAgent,
  type PeerHookOrigin,
  type PeerHooksFile,
} from '@codewhale/hooks-config';
import { conditionToJson } from '@codewhale/hooks-conditions';
import { FileUpdateError, readRegularFile, updateFileLocked, USER_CONFIG_MAX_BYTES } from '@codewhale/hooks-supervisor';
import { CliError } from '../cli-error.js';
import type { CommonOptions } from '../common-options.js';
import { commandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import { readInputFile } from '../read-input-file.js';
import { line, plural, printJson } from '../render.js';
import { editUserConfig } from '../user-config-file.js';

export interface HooksImportOptions extends CommonOptions {
  readonly from?: string;
  readonly write?: boolean;
  readonly json?: boolean;
}

const AGENTS: readonly PeerAgent[] = ['claude-code', 'codex'];
/** A project hooks.toml is at most 1 MiB (D7); so is a peer settings file we read. */
const PROJECT_FILE_MAX_BYTES = 1024 * 1024;
const PEER_FILE_MAX_BYTES = 16 * 1024 * 1024;

interface Source {
  readonly path: string;
  readonly scope: ImportScope;
  /** Named on the command line (must exist) or one of the peer's usual places (may be absent). */
  readonly named: boolean;
}

/** The peer's usual settings files: the user's, then the project's. */
function defaultSources(agent: PeerAgent, env: Io['env'], workspace: string): Source[] {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  if (agent === 'claude-code') {
    const dir = env.CLAUDE_CONFIG_DIR || join(home, '.claude');
    return [
      { path: join(dir, 'settings.json'), scope: 'user', named: false },
      { path: join(workspace, '.claude', 'settings.json'), scope: 'project', named: false },
      { path: join(workspace, '.claude', 'settings.local.json'), scope: 'project', named: false },
    ];
  }
  const dir = env.CODEX_HOME || join(home, '.codex');
  return [
    { path: join(dir, 'config.toml'), scope: 'user', named: false },
    { path: join(dir, 'hooks.json'), scope: 'user', named: false },
    { path: join(workspace, '.codex', 'config.toml'), scope: 'project', named: false },
    { path: join(workspace, '.codex', 'hooks.json'), scope: 'project', named: false },
  ];
}

/** Parse a peer file (JSON, or TOML for a `.toml`), or stop with its file, line and the fix. */
function parsePeerFile(path: string, text: string): unknown {
  if (path.endsWith('.toml')) {
    const r = parseToml(text, path);
    if (!r.ok) throw CliError.config(r.issues[0]!.summary, 'fix the file, then run the import again; nothing was written');
    return r.value;
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return JSON.parse(body) as unknown;
  } catch (e) {
    // JSON.parse names no line; the scanner finds the place and says what is wrong there.
    const where = jsonSyntaxError(body);
    const detail = where ? `${path}:${where.line}:${where.column}: invalid JSON: ${where.message}` : `${path}: invalid JSON: ${line(e instanceof Error ? e.message : String(e), 120)}`;
    throw CliError.config(detail, 'fix the file (JSON has no comments or trailing commas), then run the import again; nothing was written');
  }
}

interface Target {
  readonly scope: ImportScope;
  readonly shape: HooksFileShape;
  readonly path: string;
  /** Indices into the import's entries that go to this file. */
  readonly entries: readonly number[];
}

/** The text a target file has now (`''` when absent), or stop naming it. */
function currentText(path: string, maxBytes: number): string {
  const read = readRegularFile(path, maxBytes);
  if (read.ok) return new TextDecoder('utf-8', { ignoreBOM: true }).decode(read.bytes);
  if (read.problem === 'missing') return '';
  throw CliError.config(`cannot read ${read.message}`);
}

function where(o: PeerHookOrigin): string {
  return `${line(o.file)} ${describePeerOrigin(o)}`;
}

/** `codewhale hooks import --from claude-code|codex [FILE…] [--write]`. */
export async function runHooksImport(files: readonly string[], opts: HooksImportOptions, io: Io): Promise<number> {
  const agent = opts.from as PeerAgent | undefined;
  if (agent === undefined) throw CliError.usage('`--from` is required: claude-code or codex', 'e.g. `codewhale hooks import --from claude-code`');
  if (!AGENTS.includes(agent)) throw CliError.usage(`\`--from\` must be claude-code or codex, got \`${line(agent, 40)}\``);
  const ctx = commandContext(opts, io);

  // Every input is read and parsed before anything is written.
  const sources: Source[] = files.length
    ? files.map((f) => {
        const path = resolve(io.cwd, f);
        const rel = relative(ctx.workspace, path);
        const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
        return { path, scope: inside ? 'project' : 'user', named: true };
      })
    : // In a workspace that is your home, its `.claude/settings.json` is your own file: read it once.
      defaultSources(agent, io.env, ctx.workspace).filter((s, i, all) => all.findIndex((o) => o.path === s.path) === i);
  const read: { source: Source; found: boolean }[] = [];
  const documents: PeerHooksFile[] = [];
  for (const source of sources) {
    const bytes = source.named
      ? readInputFile(source.path, `${PEER_LABEL[agent]} settings file`, { maxBytes: PEER_FILE_MAX_BYTES })
      : readInputFile(source.path, `${PEER_LABEL[agent]} settings file`, { maxBytes: PEER_FILE_MAX_BYTES, allowMissing: true });
    read.push({ source, found: bytes !== null });
    if (bytes === null) continue;
    const text = new TextDecoder('utf-8').decode(bytes);
    documents.push({ file: source.path, scope: source.scope, document: parsePeerFile(source.path, text) });
  }

  const result = importPeerHooks(agent, documents);
  const targets: Target[] = (['user', 'project'] as const)
    .map((scope) => ({
      scope,
      shape: (scope === 'user' ? 'config' : 'project') as HooksFileShape,
      path: scope === 'user' ? ctx.paths.configPath : projectHooksFile(ctx.workspace),
      entries: result.entries.flatMap((e, i) => (e.scope === scope ? [i] : [])),
    }))
    .filter((t) => t.entries.length > 0);

  const comment = (e: ImportedHook): string => `imported from ${e.origin.file} ${describePeerOrigin(e.origin)}`;
  const edit = (t: Target, text: string) => {
    const list = t.entries.map((i) => result.entries[i]!);
    const r = appendHookEntries(
      text,
      list.map((e) => e.entry),
      t.shape,
      list.map(comment),
    );
    if (!r.ok) throw CliError.config(`${t.path}: ${r.issues[0]!.message}`, 'nothing was written');
    if (t.shape === 'project' && new TextEncoder().encode(r.value.text).length > PROJECT_FILE_MAX_BYTES) {
      throw CliError.config(`${t.path} would grow past 1 MiB, the most a project hooks file may hold`, 'nothing was written');
    }
    return r.value;
  };
  // Planned against the files as they are now: a problem with either target stops before any write.
  const planned = targets.map((t) => {
    const base = currentText(t.path, t.shape === 'config' ? USER_CONFIG_MAX_BYTES : PROJECT_FILE_MAX_BYTES);
    const plan = edit(t, base);
    return { target: t, plan, appended: plan.text.slice(base.length) };
  });

  const written = new Map<Target, boolean>();
  if (opts.write) {
    for (const { target, plan } of planned) {
      if (plan.added.length === 0) continue;
      if (target.shape === 'config') editUserConfig(target.path, (text) => edit(target, text).text);
      else writeProjectFile(target, (text) => edit(target, text).text);
      written.set(target, true);
    }
  }

  const statusOf = new Map<number, 'new' | 'present'>();
  for (const { target, plan } of planned) {
    for (const k of plan.added) statusOf.set(target.entries[k]!, 'new');
    for (const k of plan.present) statusOf.set(target.entries[k]!, 'present');
  }
  const hooksIn = (file: string): number => result.entries.filter((e) => e.origin.file === file).length + result.skipped.filter((s) => s.origin.file === file && s.origin.hook !== null).length;

  if (opts.json) {
    printJson(io, {
      from: agent,
      write: Boolean(opts.write),
      sources: read.map(({ source, found }) => ({ file: source.path, scope: source.scope, found, hooks: found ? hooksIn(source.path) : 0 })),
      targets: planned.map(({ target, plan, appended }) => ({
        file: target.path,
        scope: target.scope,
        toml: appended,
        added: plan.added.length,
        already_present: plan.present.length,
        written: written.get(target) ?? false,
      })),
      entries: result.entries.map((e, i) => ({
        scope: e.scope,
        target: targets.find((t) => t.scope === e.scope)!.path,
        status: statusOf.get(i) === 'present' ? 'already_present' : 'new',
        origin: e.origin,
        entry: { ...e.entry, ...(e.entry.condition ? { condition: conditionToJson(e.entry.condition) } : {}) },
        notes: e.notes,
      })),
      skipped: result.skipped.map((s) => ({ origin: s.origin, reason: s.reason })),
    });
    return EXIT.ok;
  }

  const out: string[] = [];
  out.push(`${PEER_LABEL[agent]} hooks:`);
  for (const { source, found } of read) {
    out.push(`  ${line(source.path)} (${source.scope}): ${found ? plural(hooksIn(source.path), 'hook') : 'not found'}`);
  }
  if (documents.length === 0) {
    out.push('', `Nothing to import: no ${PEER_LABEL[agent]} settings file was found.`);
    io.stdout(`${out.join('\n')}\n`);
    return EXIT.ok;
  }
  for (const { target, plan, appended } of planned) {
    const added = plan.added.length;
    const present = plan.present.length;
    const verb = opts.write ? (added ? 'Appended to' : 'Nothing to append to') : added ? 'Would append to' : 'Nothing to append to';
    out.push('', `${verb} ${line(target.path)} (${plural(added, 'new entry', 'new entries')}${present ? `, ${present} already there` : ''}):`);
    // The blank line that separates the new entries from the file's text is not shown.
    if (appended) out.push('', appended.replace(/^(\r?\n)+/, '').replace(/\r?\n$/, ''));
    for (const k of plan.present) out.push(`  already there: ${where(result.entries[target.entries[k]!]!.origin)}`);
    if (target.scope === 'project' && added) {
      out.push(
        '',
        `  Project hooks run only in a trusted workspace, once you approve this exact file: review it with \`codewhale hooks review\`, then \`codewhale trust\` and \`codewhale hooks approve <digest>\`.`,
      );
    }
  }
  const user = parseUserConfig(currentText(ctx.paths.configPath, USER_CONFIG_MAX_BYTES), ctx.paths.configPath);
  if (result.entries.length && user.ok && !user.value.hooks.enabled) {
    out.push('', `Hooks are turned off (\`[hooks] enabled = false\` in ${line(ctx.paths.configPath)}): none of these runs until you set it to true.`);
  }
  const notes = result.entries.flatMap((e) => e.notes.map((n) => `  ${where(e.origin)}: ${n}`));
  if (notes.length) out.push('', 'Notes:', ...notes);
  if (result.skipped.length) {
    out.push(
      '',
      `Not carried over (${result.skipped.length}):`,
      ...result.skipped.map((s) => `  ${where(s.origin)}${s.origin.matcher ? ` (matcher ${JSON.stringify(s.origin.matcher)})` : ''}: ${s.reason}`),
    );
  }
  if (!opts.write && planned.some((p) => p.plan.added.length > 0)) out.push('', 'Nothing was written. Run again with --write to append the new entries.');
  if (result.entries.length === 0) out.push('', 'Nothing to import: no hook could be carried over.');
  io.stdout(`${out.map((l) => l.replace(/\s+$/, '')).join('\n')}\n`);
  return EXIT.ok;
}

/** Change a project hooks.toml like config.toml: under its lock, atomically, or not at all. */
function writeProjectFile(target: Target, edit: (text: string) => string): void {
  try {
    updateFileLocked(target.path, (current) => edit(current.text), { mode: 0o644, maxBytes: PROJECT_FILE_MAX_BYTES });
  } catch (e) {
    if (!FileUpdateError.isInstance(e)) throw e;
    if (e.code === 'not_regular' || e.code === 'invalid_utf8' || e.code === 'too_large' || e.code === 'unreadable') throw CliError.config(e.message, 'nothing was written');
    throw new CliError(e.message, { exitCode: EXIT.failure });
  }
}
