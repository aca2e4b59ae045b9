import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import { readRegularFile } from '@codewhale/hooks-supervisor';
import * as z from 'zod';
import { applyEdits, type PreviewRead } from '../write-preview.js';
import { ToolError, type ToolDefinition } from './tool.js';
import { displayPath, resolveToolPath } from './workspace-path.js';

const MAX_READ_BYTES = 256 * 1024;
/** The largest file the `read` and `edit` tools open. */
const READ_MAX_BYTES = 64 * 1024 * 1024;
/** The largest file a write preview diffs. */
const PREVIEW_READ_MAX_BYTES = 1024 * 1024;

function readText(path: string): string {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new ToolError('not_found', `no such file: ${path}`);
  }
  if (st.isDirectory()) throw new ToolError('invalid_input', 'path is a directory; use list_dir');
  // A FIFO or device in the workspace (a hostile repository) must not hang the session.
  const read = readRegularFile(path, READ_MAX_BYTES);
  if (!read.ok) throw new ToolError('invalid_input', read.problem === 'missing' ? `no such file: ${path}` : read.message);
  return new TextDecoder().decode(read.bytes);
}

/** A write preview's view of the file a call targets: where the tool would write, read at most {@link PREVIEW_READ_MAX_BYTES}. */
export function readForPreview(ctx: { readonly workspace: string; readonly outsideWorkspace?: boolean }, path: string): PreviewRead {
  let target: string;
  try {
    target = resolveToolPath(ctx, path);
  } catch (e) {
    return { kind: 'unreadable', reason: e instanceof Error ? e.message : String(e) };
  }
  const read = readRegularFile(target, PREVIEW_READ_MAX_BYTES);
  if (read.ok) return { kind: 'text', text: new TextDecoder().decode(read.bytes) };
  if (read.problem === 'missing') return { kind: 'missing' };
  return {
    kind: 'unreadable',
    reason: read.problem === 'too_large' ? `the file is over ${PREVIEW_READ_MAX_BYTES / 1024 / 1024} MiB; no diff is shown` : `the file cannot be shown (${read.problem.replace('_', ' ')})`,
  };
}

export const readTool: ToolDefinition<{ path: string; offset?: number; limit?: number }> = {
  name: 'read',
  kind: 'read',
  description: 'Read a text file in the workspace. Lines are numbered from 1. Use offset/limit for large files.',
  schema: z
    .object({
      path: z.string().min(1).describe('File path, relative to the workspace'),
      offset: z.number().int().min(1).optional().describe('First line to read (1-based)'),
      limit: z.number().int().min(1).max(10_000).optional().describe('Number of lines to read'),
    })
    .strict(),
  async execute(input, ctx) {
    const path = resolveToolPath(ctx, input.path);
    const text = readText(path);
    const lines = text.split('\n');
    const start = (input.offset ?? 1) - 1;
    const end = input.limit ? start + input.limit : lines.length;
    let out = lines
      .slice(start, end)
      .map((l, i) => `${String(start + i + 1).padStart(6)}\t${l}`)
      .join('\n');
    let note = '';
    if (Buffer.byteLength(out) > MAX_READ_BYTES) {
      out = out.slice(0, MAX_READ_BYTES);
      note = `\n[output truncated at ${MAX_READ_BYTES} bytes; use offset/limit]`;
    }
    if (end < lines.length) note += `\n[${lines.length - end} more lines]`;
    return { content: out + note, success: true };
  },
};

export const writeTool: ToolDefinition<{ path: string; content: string }> = {
  name: 'write',
  kind: 'write',
  description: 'Create or overwrite a file in the workspace with the given content.',
  schema: z.object({ path: z.string().min(1).describe('File path, relative to the workspace'), content: z.string() }).strict(),
  async execute(input, ctx) {
    const path = resolveToolPath(ctx, input.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, input.content);
    return { content: `wrote ${Buffer.byteLength(input.content)} bytes to ${displayPath(ctx.workspace, path)}`, success: true };
  },
};

const editSchema = z
  .object({
    path: z.string().min(1).describe('File path, relative to the workspace'),
    edits: z
      .array(
        z
          .object({
            old_text: z.string().min(1).describe('Exact text to replace; must occur exactly once unless replace_all'),
            new_text: z.string(),
            replace_all: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

/** The `edit` tool's input: exact-text replacements in one file, applied against its original content. */
export interface EditInput {
  path: string;
  edits: { old_text: string; new_text: string; replace_all?: boolean | undefined }[];
}

export const editTool: ToolDefinition<EditInput> = {
  name: 'edit',
  kind: 'write',
  description: 'Edit a file in the workspace by exact text replacement. All edits apply against the original content; each old_text must be unique unless replace_all is set.',
  schema: editSchema,
  async execute(input, ctx) {
    const path = resolveToolPath(ctx, input.path);
    const original = readText(path);
    const edited = applyEdits(original, input.edits);
    if (!edited.ok) throw new ToolError('invalid_input', edited.reason);
    writeFileSync(path, edited.text);
    return { content: `applied ${input.edits.length} edit(s) to ${displayPath(ctx.workspace, path)}`, success: true };
  },
};

const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', '.turbo']);

export const listDirTool: ToolDefinition<{ path?: string }> = {
  name: 'list_dir',
  kind: 'read',
  description: 'List a directory in the workspace (directories end with /).',
  schema: z.object({ path: z.string().optional().describe('Directory, relative to the workspace (default: the workspace)') }).strict(),
  async execute(input, ctx) {
    const path = resolveToolPath(ctx, input.path ?? '.');
    let entries: Dirent[];
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch {
      throw new ToolError('not_found', `no such directory: ${input.path ?? '.'}`);
    }
    const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
    return { content: names.length ? names.join('\n') : '(empty)', success: true };
  },
};

const MAX_MATCHES = 200;

export const grepTool: ToolDefinition<{ pattern: string; path?: string; ignore_case?: boolean }> = {
  name: 'grep',
  kind: 'read',
  description: 'Search file contents in the workspace with a regular expression. Returns path:line:text matches.',
  schema: z
    .object({
      pattern: z.string().min(1).describe('JavaScript regular expression'),
      path: z.string().optional().describe('File or directory to search (default: the workspace)'),
      ignore_case: z.boolean().optional(),
    })
    .strict(),
  async execute(input, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(input.pattern, input.ignore_case ? 'i' : '');
    } catch (e) {
      throw new ToolError('invalid_input', `invalid regular expression: ${(e as Error).message}`);
    }
    const root = resolveToolPath(ctx, input.path ?? '.');
    const matches: string[] = [];
    const visit = (p: string): void => {
      if (matches.length >= MAX_MATCHES || ctx.signal.aborted) return;
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(p);
      } catch {
        return;
      }
      if (st.isSymbolicLink()) return;
      if (st.isDirectory()) {
        for (const name of readdirSync(p).sort()) if (!SKIP_DIRS.has(name)) visit(join(p, name));
        return;
      }
      if (!st.isFile() || st.size > 2 * 1024 * 1024) return;
      const text = readFileSync(p, 'utf8');
      if (text.includes('\0')) return;
      text.split('\n').forEach((line, i) => {
        if (matches.length < MAX_MATCHES && re.test(line)) matches.push(`${displayPath(ctx.workspace, p)}:${i + 1}:${line.slice(0, 300)}`);
      });
    };
    visit(root);
    const more = matches.length >= MAX_MATCHES ? `\n[stopped at ${MAX_MATCHES} matches]` : '';
    return { content: matches.length ? matches.join('\n') + more : 'no matches', success: true };
  },
};
