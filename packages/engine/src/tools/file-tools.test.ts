import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool, grepTool, listDirTool, readTool, writeTool } from './file-tools.js';
import type { ToolRunContext } from './tool.js';
import { resolveInWorkspace } from './workspace-path.js';

const ws = realpathSync(mkdtempSync(join(tmpdir(), 'cw-files-')));
const outside = realpathSync(mkdtempSync(join(tmpdir(), 'cw-outside-')));
writeFileSync(join(outside, 'secret.txt'), 'top secret');
symlinkSync(outside, join(ws, 'escape'));

const ctx = {
  workspace: ws,
  callId: 'c',
  toolName: 't',
  signal: new AbortController().signal,
  hooks: null,
  wantsReceipt: false,
  parentEnv: {},
  services: { setTodos: () => {}, askUser: async () => null, runSubagent: async () => ({ agentId: '', result: '', status: '' }) },
} satisfies ToolRunContext;

describe('workspace confinement', () => {
  it('resolves relative paths inside the workspace', () => {
    expect(resolveInWorkspace(ws, 'a/b.txt')).toBe(join(ws, 'a/b.txt'));
    expect(resolveInWorkspace(ws, '.')).toBe(ws);
  });

  it('resolves a workspace reached through a symlink, or spelled with a trailing slash, to its real path', () => {
    const link = join(outside, 'ws-link');
    symlinkSync(ws, link);
    for (const root of [link, `${link}/`, `${ws}/`]) {
      expect(resolveInWorkspace(root, '.'), root).toBe(ws);
      expect(resolveInWorkspace(root, ''), root).toBe(ws);
      expect(resolveInWorkspace(root, 'a/b.txt'), root).toBe(join(ws, 'a/b.txt'));
      expect(() => resolveInWorkspace(root, '../x'), root).toThrow(/outside the workspace/);
    }
  });

  it('refuses .., absolute paths outside, and symlinks that leave the workspace', () => {
    for (const p of ['../x', '/etc/passwd', 'escape/secret.txt', 'escape/new-file.txt', 'a/../../x']) {
      expect(() => resolveInWorkspace(ws, p), p).toThrow(/outside the workspace/);
    }
  });
});

describe('session trust (/trust on)', () => {
  it('lets file tools reach outside the workspace only while it is on', async () => {
    await expect(readTool.execute({ path: join(outside, 'secret.txt') }, ctx)).rejects.toMatchObject({ kind: 'path_escape' });
    await expect(readTool.execute({ path: 'escape/secret.txt' }, ctx)).rejects.toMatchObject({ kind: 'path_escape' });
    const trusted = { ...ctx, outsideWorkspace: true };
    expect((await readTool.execute({ path: join(outside, 'secret.txt') }, trusted)).content).toContain('top secret');
    expect((await readTool.execute({ path: 'escape/secret.txt' }, trusted)).content).toContain('top secret');
    await writeTool.execute({ path: join(outside, 'new.txt'), content: 'x' }, trusted);
    expect(readFileSync(join(outside, 'new.txt'), 'utf8')).toBe('x');
  });
});

describe('file tools', () => {
  it('writes, reads with line numbers and ranges', async () => {
    await writeTool.execute({ path: 'dir/f.txt', content: 'one\ntwo\nthree\n' }, ctx);
    expect(readFileSync(join(ws, 'dir/f.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const all = await readTool.execute({ path: 'dir/f.txt' }, ctx);
    expect(all.content.split('\n')[1]).toBe('     2\ttwo');
    const part = await readTool.execute({ path: 'dir/f.txt', offset: 2, limit: 1 }, ctx);
    expect(part.content).toBe('     2\ttwo\n[2 more lines]');
  });

  it('edits against the original snapshot and refuses ambiguous or missing text', async () => {
    writeFileSync(join(ws, 'e.txt'), 'a b a c');
    await expect(editTool.execute({ path: 'e.txt', edits: [{ old_text: 'a', new_text: 'x' }] }, ctx)).rejects.toThrow(/occurs 2 times/);
    await expect(editTool.execute({ path: 'e.txt', edits: [{ old_text: 'zzz', new_text: 'x' }] }, ctx)).rejects.toThrow(/not found/);
    await editTool.execute(
      {
        path: 'e.txt',
        edits: [
          { old_text: 'a', new_text: '$&', replace_all: true },
          { old_text: 'c', new_text: 'd' },
        ],
      },
      ctx,
    );
    expect(readFileSync(join(ws, 'e.txt'), 'utf8')).toBe('$& b $& d');
  });

  it('lists directories and greps contents, skipping .git and node_modules', async () => {
    mkdirSync(join(ws, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(ws, 'node_modules/pkg/i.js'), 'needle');
    writeFileSync(join(ws, 'g.txt'), 'hay\nneedle here\n');
    const list = await listDirTool.execute({}, ctx);
    expect(list.content.split('\n')).toEqual(expect.arrayContaining(['dir/', 'g.txt', 'e.txt']));
    const found = await grepTool.execute({ pattern: 'need+le' }, ctx);
    expect(found.content).toBe('g.txt:2:needle here');
  });

  it('refuses to write through a symlink out of the workspace', async () => {
    await expect(writeTool.execute({ path: 'escape/evil.txt', content: 'x' }, ctx)).rejects.toMatchObject({ kind: 'path_escape' });
  });
});

describe('special files in the workspace', () => {
  it('the read tool refuses a FIFO at once instead of hanging', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(ws, 'README.fifo')]);
    await expect(readTool.execute({ path: 'README.fifo' }, ctx)).rejects.toThrow(/is a FIFO \(named pipe\), not a regular file/);
  });
});
