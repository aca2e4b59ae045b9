import {
  approveProjectHooks,
  describeProjectStatus,
  parseUserConfig,
  projectScriptPaths,
  readProjectRecord,
  renderProjectReview,
  revokeProjectHooks,
  reviewProjectHooks,
  scriptPathsToCheck,
  type ApproveError,
} from '@codewhale/hooks-config';
import { LIMITS } from '@codewhale/hooks-payloads';
import { projectHooksPath, scriptDigests, sha256Hex, type HookConfiguration } from '@codewhale/hooks-supervisor';
import { CliError } from '../cli-error.js';
import { commandContext, loadConfiguration, type CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { CommonOptions } from '../common-options.js';
import { line, plural, printJson } from '../render.js';
import { editUserConfig } from '../user-config-file.js';

export interface HooksReviewOptions extends CommonOptions {
  readonly json?: boolean;
}

function projectFileOf(config: HookConfiguration, ctx: CommandContext): string {
  return config.projectFile ?? projectHooksPath(ctx.workspace);
}

/**
 * `codewhale hooks review`: the workspace's project hooks exactly as they would run — every
 * command in full (control characters removed, line breaks kept), the file's SHA-256, trust and
 * approval state, and the scripts the commands name with their digests and pin status (D13).
 */
export async function runHooksReview(opts: HooksReviewOptions, io: Io): Promise<number> {
  const ctx = commandContext(opts, io);
  const config = loadConfiguration(ctx);
  const file = projectFileOf(config, ctx);
  const bytes = config.projectBytes;
  const record = readProjectRecord(config.loaded.userConfig.document, ctx.workspace);
  if (bytes === null) {
    if (opts.json) printJson(io, { file, present: false, workspace: ctx.workspace, trusted: record.trusted, state: 'none', revoked: record.revoked });
    else io.stdout(`No project hooks file: ${line(file)} does not exist.\nworkspace trusted: ${record.trusted ? 'yes' : 'no'}\n`);
    return EXIT.ok;
  }
  const review = reviewProjectHooks({
    globalHooks: config.loaded.userConfig.hooks,
    record,
    projectFile: bytes,
    file,
    sha256: sha256Hex,
    scriptDigests: scriptDigests(ctx.workspace, scriptPathsToCheck(record, bytes)),
  });
  const a = review.approval;
  if (opts.json) {
    printJson(io, {
      file,
      present: true,
      workspace: ctx.workspace,
      digest: a.digest,
      trusted: a.trusted,
      state: a.state,
      loaded: a.loadable,
      approved_digest: a.approvedDigest,
      status: describeProjectStatus({ state: a.state, trusted: a.trusted, digest: a.digest, loaded: a.loadable, changedScripts: a.changedScripts.length }),
      entries: review.entries.map((e) => ({ position: e.position, line: e.line, label: e.label, event: e.event, command: e.command })),
      scripts: review.scripts.map((s) => ({ path: s.path, digest: s.digest, status: s.status })),
      changed_scripts: [...a.changedScripts],
      problems: review.problems.map((p) => ({ severity: p.severity, code: p.code, summary: p.summary, line: p.line })),
    });
    return EXIT.ok;
  }
  let out = renderProjectReview(review).replace(/: hooks approve ([0-9a-f]{64})$/, ': codewhale hooks approve $1');
  const extra: string[] = [];
  if (a.changedScripts.length) extra.push(`Changed since approval: ${a.changedScripts.map((p) => line(p)).join(', ')}`);
  if (!a.trusted) extra.push('The workspace is not trusted: project hooks also need `codewhale trust`.');
  if (extra.length) {
    // Before the closing "approve" line, so that line stays last.
    const at = out.lastIndexOf('\n\nTo run these exact bytes');
    out = at >= 0 ? `${out.slice(0, at)}\n\n${extra.join('\n')}${out.slice(at)}` : `${out}\n\n${extra.join('\n')}`;
  }
  io.stdout(`${out}\n`);
  return EXIT.ok;
}

function approveFailure(e: ApproveError, current: string | null, file: string): CliError {
  switch (e.code) {
    case 'no_project_file':
      return new CliError(`there is no project hooks file to approve (${file} does not exist)`);
    case 'invalid_digest':
    case 'digest_too_short':
      return CliError.usage(e.message, 'copy the digest `codewhale hooks review` prints');
    case 'digest_mismatch':
    case 'digest_ambiguous':
      return new CliError(`that digest does not match ${file} as it is now (sha256 ${current}); nothing was approved`, {
        hint: 'run `codewhale hooks review`, read the commands and scripts, then approve the digest it shows',
      });
    case 'config_unparseable':
      return CliError.config(e.message, 'fix config.toml first (it was not changed)');
    default:
      return new CliError(`${e.message}; config.toml was not changed`);
  }
}

/**
 * `codewhale hooks approve <digest>`: record the approval of the project hooks file as it is
 * now (the full digest or a unique prefix of ≥ 12 hex), with its named scripts pinned, in the
 * user's config.toml, keeping every other byte. Takes effect from the next session. Does not
 * grant trust: when the workspace is untrusted it says so.
 */
export async function runHooksApprove(digest: string, opts: CommonOptions, io: Io): Promise<number> {
  const ctx = commandContext(opts, io);
  const config = loadConfiguration(ctx);
  const file = projectFileOf(config, ctx);
  const bytes = config.projectBytes;
  const current = bytes ? sha256Hex(bytes) : null;
  if (bytes && bytes.length > LIMITS.projectHooksFileMaxBytes) {
    throw new CliError(`${file} is larger than 1 MiB, so it can never load; nothing was approved`);
  }
  // Set inside the locked edit (TypeScript does not follow assignments in callbacks).
  let approved = undefined as Extract<ReturnType<typeof approveProjectHooks>, { ok: true }>['value'] | undefined;
  const cfg = editUserConfig(ctx.paths.configPath, (configText) => {
    const r = approveProjectHooks({
      configText,
      workspace: ctx.workspace,
      projectFile: bytes,
      sha256: sha256Hex,
      digest,
      ...(bytes ? { scriptDigests: scriptDigests(ctx.workspace, projectScriptPaths(bytes)) } : {}),
    });
    if (!r.ok) throw approveFailure(r.issues[0]!, current, file);
    approved = r.value;
    return r.value.configText;
  });
  const value = approved!;
  const pins = Object.keys(value.scripts).length;
  const pinned = pins ? `, ${plural(pins, 'script')} pinned` : '';
  if (!cfg.changed) {
    io.stdout(`already approved: project hooks of ${ctx.workspace} (sha256 ${value.digest}${pinned}); ${cfg.path} unchanged\n`);
  } else {
    io.stdout(`approved project hooks of ${ctx.workspace}: sha256 ${value.digest}${pinned} \u2014 recorded in ${cfg.path}; takes effect from the next session\n`);
  }
  const parsed = parseUserConfig(cfg.text, cfg.path);
  const trusted = parsed.ok && readProjectRecord(parsed.value.document, ctx.workspace).trusted;
  if (!trusted) io.stderr('note: the workspace is not trusted, so these hooks will not load until you also run `codewhale trust`\n');
  return EXIT.ok;
}

/**
 * `codewhale hooks revoke`: remove the approval and its pins and record `hooks_revoked = true`.
 * Takes effect at once for future and queued launches (checked at spawn and at dequeue);
 * hooks already running are not stopped.
 */
export async function runHooksRevoke(opts: CommonOptions, io: Io): Promise<number> {
  const ctx = commandContext(opts, io);
  const cfg = editUserConfig(ctx.paths.configPath, (text) => {
    const r = revokeProjectHooks(text, ctx.workspace);
    if (!r.ok) {
      const e = r.issues[0]!;
      throw e.code === 'config_unparseable' ? CliError.config(e.message, 'fix config.toml first (it was not changed)') : new CliError(`${e.message}; config.toml was not changed`);
    }
    return r.value;
  });
  if (!cfg.changed) {
    io.stdout(`already revoked: project hooks of ${ctx.workspace}; ${cfg.path} unchanged\n`);
    return EXIT.ok;
  }
  io.stdout(`revoked project hooks of ${ctx.workspace} \u2014 recorded hooks_revoked = true in ${cfg.path}; no project hook starts from now on (running ones are not stopped)\n`);
  return EXIT.ok;
}
