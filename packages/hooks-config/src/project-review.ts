import { sanitizeLabel, sanitizeText } from '@codewhale/hooks-payloads';
import { buildHookSet } from './build-hook-set.js';
import type { HooksSection } from './hooks-section.js';
import { parseProjectHooks } from './parse-project-hooks.js';
import { eventPart } from './problem.js';
import { projectApproval, type ProjectApproval } from './project-approval.js';
import { ABSENT_SCRIPT, type ProjectRecord } from './project-record.js';
import { describeProjectStatus } from './render-hooks-list.js';
import { isTable } from './schema.js';
import type { ConfigProblem, Sha256 } from './types.js';

export type ReviewScriptStatus = 'pinned' | 'changed' | 'unpinned';

export interface ProjectReviewScript {
  /** Workspace-relative path the commands name. */
  readonly path: string;
  /** Its SHA-256 now, or `null` when it does not exist. */
  readonly digest: string | null;
  /** `pinned`: matches the approval; `changed`: differs from its pin; `unpinned`: no pin yet. */
  readonly status: ReviewScriptStatus;
}

export interface ProjectReviewEntry {
  /** 0-based position in the file's `[[hooks]]` array. */
  readonly position: number;
  readonly line: number | null;
  readonly label: string;
  /** The event as written, when it is a plain name; otherwise `(invalid event)` / `(missing event)`. */
  readonly event: string;
  /** The full command with control characters removed (line breaks kept): what would run. */
  readonly command: string | null;
}

/** What `hooks review` shows before an approval: the exact commands, the digest and the scripts. */
export interface ProjectReview {
  readonly file: string;
  readonly approval: ProjectApproval;
  readonly entries: readonly ProjectReviewEntry[];
  readonly scripts: readonly ProjectReviewScript[];
  /** The problems these entries would have if approved (under the user's own settings). */
  readonly problems: readonly ConfigProblem[];
}

export interface ProjectReviewInput {
  /** The user's `[hooks]` section (its override applies to project hooks too). */
  readonly globalHooks: HooksSection;
  readonly record: ProjectRecord;
  readonly projectFile: Uint8Array;
  readonly file: string;
  readonly sha256: Sha256;
  readonly scriptDigests?: ReadonlyMap<string, string | null>;
}

/** Build the `hooks review` model. Commands appear here in full (control-stripped) and nowhere else. */
export function reviewProjectHooks(input: ProjectReviewInput): ProjectReview {
  const approval = projectApproval({
    record: input.record,
    projectFile: input.projectFile,
    sha256: input.sha256,
    ...(input.scriptDigests ? { scriptDigests: input.scriptDigests } : {}),
  });
  const section = parseProjectHooks(input.projectFile, input.file);
  const merged = buildHookSet({ ...input.globalHooks, entries: [], problems: [] }, section);
  const entries = section.entries.map((e): ProjectReviewEntry => {
    const t = isTable(e.raw) ? e.raw : {};
    return {
      position: e.position,
      line: e.line,
      label: sanitizeLabel(typeof t['name'] === 'string' ? t['name'] : null),
      event: eventPart(t['event']),
      command: typeof t['command'] === 'string' ? sanitizeText(t['command']).text : null,
    };
  });
  const scripts = approval.scripts.map((path): ProjectReviewScript => {
    const digest = input.scriptDigests?.get(path)?.toLowerCase() ?? null;
    const pin = input.record.approvedScripts.get(path);
    const status: ReviewScriptStatus = pin === undefined ? 'unpinned' : pin === (digest ?? ABSENT_SCRIPT) ? 'pinned' : 'changed';
    return { path, digest, status };
  });
  return { file: input.file, approval, entries, scripts, problems: merged.problems };
}

/** `hooks review` as text. */
export function renderProjectReview(review: ProjectReview): string {
  const a = review.approval;
  // An approved file that does not parse is skipped at load: say so, as `hooks list` does.
  const unreadable = review.problems.some((p) => p.code === 'toml_syntax' || p.code === 'project_file_unreadable' || p.code === 'wrong_shape');
  const status = describeProjectStatus({ state: a.state, trusted: a.trusted, digest: a.digest, loaded: a.loadable && !unreadable, changedScripts: a.changedScripts.length });
  const out: string[] = [
    `Project hooks file: ${review.file}`,
    `sha256: ${a.digest ?? '(none)'}`,
    `workspace trusted: ${a.trusted ? 'yes' : 'no'}`,
    `status: ${status ?? 'no project hooks file'}`,
    '',
    `${review.entries.length} project hook entr${review.entries.length === 1 ? 'y' : 'ies'} (these commands run with your credentials):`,
  ];
  for (const e of review.entries) {
    out.push(`  ${e.position + 1}. ${e.label} \u2014 \`${e.event}\`${e.line === null ? '' : ` (line ${e.line})`}`);
    const lines = (e.command ?? '(no command)').split('\n');
    out.push(`      $ ${lines[0]}`, ...lines.slice(1).map((l) => `        ${l}`));
  }
  if (review.scripts.length) {
    out.push('', 'Scripts these commands name (review them too; approval pins them):');
    for (const s of review.scripts) out.push(`  - ${s.path}  ${s.digest ?? 'absent'}  [${s.status}]`);
  }
  if (review.problems.length) {
    out.push('', 'Problems these entries would have:');
    for (const p of review.problems) out.push(`  - ${p.summary}`);
  }
  if (a.digest) out.push('', `To run these exact bytes from the next session on: hooks approve ${a.digest}`);
  return out.join('\n');
}
