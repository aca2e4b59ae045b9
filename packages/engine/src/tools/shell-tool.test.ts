import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRuntime, spawnerInUse } from '@codewhale/hooks-supervisor';
import type { EngineHooks } from '../engine-hooks.js';
import { hookSet } from '../../test/hook-set.js';
import { HeadTailBuffer } from './output-buffer.js';
import { BashTool, bashTool, execShellTool, SHELL_DEFAULTS } from './shell-tool.js';
import type { ToolRunContext } from './tool.js';

const ws = realpathSync(mkdtempSync(join(tmpdir(), 'cw-shell-')));
const runtimes: HookRuntime[] = [];

function ctx(over: Partial<ToolRunContext> = {}): ToolRunContext {
  return {
    workspace: ws,
    callId: 'call_1',
    toolName: 'bash',
    signal: new AbortController().signal,
    hooks: null,
    wantsReceipt: false,
    parentEnv: { PATH: process.env.PATH, HOME: ws, SECRET_TOKEN: 'ambient-secret', AWS_SECRET_ACCESS_KEY: 'aws' },
    services: { setTodos: () => {}, askUser: async () => null, runSubagent: async () => ({ agentId: 'x', result: '', status: 'completed' }) },
    ...over,
  };
}

function runtime(specs: Parameters<typeof hookSet>[0]): HookRuntime {
  const r = new HookRuntime({ hooks: hookSet(specs), workspace: ws, parentEnv: { PATH: process.env.PATH } });
  runtimes.push(r);
  return r;
}

afterAll(async () => {
  for (const r of runtimes) await r.close();
});

/** Start processes `kind`'s way from now on (the supervisor's documented setting). */
function useSpawner(kind: 'native' | 'child_process'): void {
  if (kind === 'child_process') process.env['CODEWHALE_SPAWN'] = 'child_process';
  else delete process.env['CODEWHALE_SPAWN'];
}

// The ways this machine has: posix_spawn through codewhale-spawn where it was built, and child_process.
const SPAWNERS = spawnerInUse() === 'native' ? (['native', 'child_process'] as const) : (['child_process'] as const);

// Every rule holds on both ways of starting a process.
describe.each(SPAWNERS)('the shell tool (%s)', (spawner) => {
  beforeAll(() => {
    useSpawner(spawner);
    expect(spawnerInUse()).toBe(spawner);
  });
  afterAll(() => useSpawner('native'));

  it('a command that cannot start (its working directory is gone) is a tool failure, not a crash', async () => {
    const gone = join(ws, 'gone');
    await expect(bashTool.execute({ command: 'true' }, ctx({ workspace: gone }))).rejects.toMatchObject({ kind: 'failed', message: expect.stringContaining('could not be started') });
  });

  it('combines stdout and stderr for bash and reports exit code and status', async () => {
    const r = await bashTool.execute({ command: 'echo out; echo err >&2; exit 4' }, ctx());
    expect(r.content).toBe('out\nerr\n[exit code: 4]');
    expect(r.success).toBe(false);
    expect(r.metadata).toEqual({ exit_code: 4, status: 'failed' });
  });

  it('keeps stdout and stderr separate for Bash and exec_shell', async () => {
    for (const tool of [BashTool, execShellTool]) {
      const r = await tool.execute({ command: 'echo out; echo err >&2' }, ctx());
      expect(r.content).toBe('out\n[stderr]\nerr\n[exit code: 0]');
      expect(r.metadata).toEqual({ exit_code: 0, status: 'completed' });
    }
  });

  it('never passes ambient secrets to the command, only the allowlist', async () => {
    const r = await bashTool.execute({ command: 'echo "[$SECRET_TOKEN][$AWS_SECRET_ACCESS_KEY][$HOME]"' }, ctx());
    expect(r.content).toBe(`[][][${ws}]\n[exit code: 0]`);
  });

  it('applies shell_env values from real hooks on top of the allowlist', async () => {
    const hooks = runtime([{ event: 'shell_env', command: `echo DEPLOY_TOKEN=tok-123; echo 'HOME=/override'` }]);
    const r = await bashTool.execute({ command: 'echo "$DEPLOY_TOKEN $HOME $SECRET_TOKEN."' }, ctx({ hooks: hooks as EngineHooks }));
    expect(r.content).toBe('tok-123 /override .\n[exit code: 0]');
  });

  it('gives the command a shell_env variable named __proto__ like any other', async () => {
    const hooks = runtime([{ event: 'shell_env', command: `echo __proto__=kept` }]);
    const r = await bashTool.execute({ command: 'printf "%s." "$__proto__"' }, ctx({ hooks: hooks as EngineHooks }));
    expect(r.content).toBe('kept.\n[exit code: 0]');
  });

  it('never aborts the call when a shell_env hook fails', async () => {
    const hooks = runtime([{ event: 'shell_env', command: 'echo A=1; exit 3' }]);
    const r = await bashTool.execute({ command: 'echo "a=$A"' }, ctx({ hooks: hooks as EngineHooks }));
    expect(r.content).toBe('a=\n[exit code: 0]');
  });

  it('times out, kills the process group, and says so', async () => {
    const r = await bashTool.execute({ command: 'sleep 30 & sleep 30', timeout: 1 }, ctx());
    expect(r.metadata).toEqual({ exit_code: null, status: 'timed_out' });
    expect(r.content).toBe('[timed out after 1s; the process group was killed]');
  });

  it('is killed by cancellation', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await bashTool.execute({ command: 'sleep 30' }, ctx({ signal: controller.signal }));
    expect(r.metadata?.status).toBe('killed');
  });

  it('builds an exact receipt only when asked, with the canonical cwd', async () => {
    mkdirSync(join(ws, 'sub'), { recursive: true });
    try {
      symlinkSync(join(ws, 'sub'), join(ws, 'link'));
    } catch {
      // already there
    }
    const without = await bashTool.execute({ command: 'printf hello' }, ctx());
    expect(without.receipt).toBeNull();
    const r = await bashTool.execute({ command: 'printf hello', cwd: 'link' }, ctx({ wantsReceipt: true }));
    expect(JSON.parse(r.receipt!.env)).toEqual({
      schema_version: 1,
      command: 'printf hello',
      cwd: join(ws, 'sub'),
      state: 'completed',
      scope: 'local',
      exit_code: 0,
      stdout: 'hello',
      stderr: '',
      stdout_truncated: false,
      stderr_truncated: false,
      output_kind: 'combined',
    });
  });

  it('refuses a cwd outside the workspace', async () => {
    await expect(bashTool.execute({ command: 'pwd', cwd: '../..' }, ctx())).rejects.toMatchObject({ kind: 'path_escape' });
  });

  it('keeps the head and tail of a flood with bounded memory', async () => {
    const r = await bashTool.execute({ command: 'seq 1 2000000' }, ctx());
    expect(r.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.content).toMatch(/\[… \d+ bytes of output omitted …\]/);
    expect(r.content.endsWith('1999999\n2000000\n[exit code: 0]')).toBe(true);
    expect(r.content.length).toBeLessThan(60 * 1024);
  });
});

describe('the shell tool on both spawn paths', () => {
  afterAll(() => useSpawner('native'));

  it('keeps the same head and tail whichever way the command was started, for any bytes', async () => {
    const piece = fc
      .array(
        fc.oneof(
          fc.constantFrom('a', 'é', '鲸', '🐳', '\n').map((c) => new TextEncoder().encode(c)),
          fc.uint8Array({ minLength: 1, maxLength: 3 }),
        ),
        { minLength: 1, maxLength: 40 },
      )
      .map((parts) => Buffer.concat(parts));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(piece, fc.integer({ min: 0, max: 60_000 }), async (p, length) => {
        const data = Buffer.alloc(length);
        for (let i = 0; i < length; i++) data[i] = p[i % p.length]!;
        const file = join(ws, `data-${n++}`);
        writeFileSync(file, data);
        const ref = new HeadTailBuffer(SHELL_DEFAULTS.headBytes, SHELL_DEFAULTS.tailBytes);
        ref.push(data);
        const contents: string[] = [];
        const receipts: unknown[] = [];
        for (const mode of ['native', 'child_process'] as const) {
          useSpawner(mode);
          const r = await BashTool.execute({ command: `cat '${file}'` }, ctx({ wantsReceipt: true }));
          contents.push(r.content);
          receipts.push(r.receipt);
        }
        expect(contents[0]).toBe(contents[1]);
        expect(receipts[0]).toEqual(receipts[1]);
        const text = ref.text();
        expect(contents[0]).toBe(`${text === '' ? '' : text.endsWith('\n') ? text : `${text}\n`}[exit code: 0]`);
      }),
      { numRuns: 12 },
    );
  }, 60_000);
});
