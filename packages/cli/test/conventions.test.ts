import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
const SGR = /\x1b\[\d+m/;

describe('CLI conventions', () => {
  it('--version and -V print the package.json version', async () => {
    const s = sandbox();
    for (const flag of ['--version', '-V']) {
      const r = await s.run([flag]);
      expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('every command documents its exit codes in --help, and the help names a guide that exists', async () => {
    const s = sandbox();
    const commands = [
      [],
      ['exec'],
      ['hooks'],
      ['hooks', 'list'],
      ['hooks', 'events'],
      ['hooks', 'validate'],
      ['hooks', 'test'],
      ['hooks', 'review'],
      ['hooks', 'approve'],
      ['hooks', 'revoke'],
      ['hooks', 'import'],
      ['trust'],
      ['untrust'],
      ['completion'],
    ];
    for (const c of commands) {
      const r = await s.run([...c, '--help']);
      expect.soft(r.code, c.join(' ')).toBe(0);
      if (c[0] !== 'hooks' || c.length > 1) expect.soft(r.stdout, c.join(' ')).toMatch(/Exit codes:/);
    }
    const guide = /Hook guide: (\S+)/.exec((await s.run(['--help'])).stdout)?.[1];
    expect(guide && existsSync(guide)).toBe(true);
    expect(readFileSync(guide!, 'utf8')).toMatch(/^# /);
  });

  it('a mistyped command or option gets a suggestion and exit 2', async () => {
    const s = sandbox();
    expect(await s.run(['exce'])).toMatchObject({ code: 2, stderr: expect.stringContaining("error: unknown command 'exce'; did you mean `exec`?") });
    expect(await s.run(['trsut'])).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean `trust`?') });
    expect(await s.run(['hooks', 'list', '--jsn'])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--jsn'; did you mean `--json`?") });
    expect((await s.run(['zzzzzz'])).stderr).not.toContain('did you mean');
  });

  it('colours errors only when asked: FORCE_COLOR wins, NO_COLOR turns colour off, a pipe gets none', async () => {
    const s = sandbox();
    const err = async (env: Record<string, string>) => (await s.run(['exce'], { env })).stderr;
    expect(await err({ NO_COLOR: '', FORCE_COLOR: '1' })).toMatch(SGR);
    expect(await err({ NO_COLOR: '1', FORCE_COLOR: '1' })).toMatch(SGR);
    expect(await err({ NO_COLOR: '1' })).not.toMatch(SGR);
    expect(await err({ NO_COLOR: '' })).not.toMatch(SGR); // not a terminal
    expect(await err({ NO_COLOR: '', FORCE_COLOR: '0' })).not.toMatch(SGR);
    const help = (await s.run(['--help'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } })).stdout;
    expect(help).toMatch(SGR);
    expect(help.replace(/\x1b\[\d+m/g, '')).toBe((await s.run(['--help'])).stdout);
  });

  it('completion bash completes commands, subcommands, event names and options in a real bash', async () => {
    const s = sandbox();
    const r = await s.run(['completion', 'bash']);
    expect(r.code).toBe(0);
    const script = join(s.dir, 'codewhale.bash');
    writeFileSync(script, r.stdout);
    const complete = (...words: string[]) => {
      const out = spawnSync(
        'bash',
        ['--norc', '-c', `source "$1"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _codewhale; printf '%s\\n' "\${COMPREPLY[@]}"`, 'bash', script],
        { encoding: 'utf8' },
      );
      expect(out.stderr).toBe('');
      return out.stdout.split('\n').filter(Boolean);
    };
    expect(complete('codewhale', 'ex')).toEqual(['exec']);
    expect(complete('codewhale', 'hooks', 'te')).toEqual(['test']);
    expect(complete('codewhale', 'hooks', 'test', 'tool_call_b')).toEqual(['tool_call_before']);
    expect(complete('codewhale', 'hooks', 'ls', '--j')).toEqual(['--json']);
    expect(complete('codew', '--workspace', '.', 'hooks', 'rev')).toEqual(['review', 'revoke']);
    expect(complete('codewhale', 'completion', '')).toEqual(['bash', 'zsh', 'fish', '--help']);
  });

  it('completion zsh and fish cover the same tree; an unknown shell is a usage error', async () => {
    const s = sandbox();
    const zsh = await s.run(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef codewhale codew\n/);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain('complete -o default -F _codewhale codewhale codew');
    const fish = (await s.run(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c codewhale -f -n '__fish_use_subcommand' -a exec -d 'Run one prompt headlessly");
    expect(fish).toContain("complete -c codew -f -n '__fish_seen_subcommand_from hooks; and not __fish_seen_subcommand_from list ls events validate test import review approve revoke' -a test");
    expect(fish).toMatch(/complete -c codewhale -n '__fish_seen_subcommand_from list' -l json/);
    expect(await s.run(['completion', 'tcsh'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown shell `tcsh`') });
  });
});
