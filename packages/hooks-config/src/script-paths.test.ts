import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeWorkspacePath, scriptPathsInCommand, scriptPathsInCommands } from './script-paths.js';

describe('scriptPathsInCommand (D13)', () => {
  it.each([
    ['./.codewhale/hooks/gate.sh', ['.codewhale/hooks/gate.sh']],
    ['.codewhale/hooks/x.py --strict', ['.codewhale/hooks/x.py']],
    ['sh ./scripts/a.sh', ['scripts/a.sh']],
    ['bash -eu scripts/run', ['scripts/run']],
    ['python3 tools/check.py --fast', ['tools/check.py']],
    ['node ./hooks/gate.mjs && ./bin/notify', ['bin/notify', 'hooks/gate.mjs']],
    ['. ./env.sh; echo ok', ['env.sh']],
    ['FOO=1 env -i ./a/b.sh', ['a/b.sh']],
    ["sh -c './inner.sh arg'", ['inner.sh']],
    ['"./with space/x.sh"', ['with space/x.sh']],
    ['cat notes.txt | ./x/filter', ['x/filter']],
    ['echo x > ./log/out.sh 2>./err.sh', []],
    ['./a/../b/./c.sh', ['b/c.sh']],
    ['gate.sh', ['gate.sh']],
    ['echo hello', []],
    ['/usr/local/bin/gate.sh', []],
    ['~/.codewhale/hooks/gate.sh', []],
    ['$HOME/x.sh', []],
    ['"$DIR/x.sh"', []],
    ['./../outside.sh', []],
    ['../../x.sh', []],
    ['curl https://example.com/x.sh', []],
    ['./scripts/*.sh', []],
    ['aws-vault export my-profile --format=env', []],
    ['python -c "print(1)" ./not-a-script', []],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh', ['.claude/hooks/format.sh']],
    ['node "${CLAUDE_PROJECT_DIR}/.claude/hooks/context.js" --x', ['.claude/hooks/context.js']],
    ['$CLAUDE_PROJECT_DIR/../outside.sh', []],
    ['"$CLAUDE_PROJECT_DIR/$NAME.sh"', []],
    ['"$CLAUDE_PROJECT_DIRX"/x.sh', []],
  ])('%s → %j', (command, paths) => {
    expect(scriptPathsInCommand(command)).toEqual(paths);
  });

  it('merges and sorts across commands', () => {
    expect(scriptPathsInCommands(['./b.sh', './a.sh', './b.sh'])).toEqual(['a.sh', 'b.sh']);
  });

  it('normalizes paths lexically and refuses escapes', () => {
    expect(normalizeWorkspacePath('./a//b/./c')).toBe('a/b/c');
    expect(normalizeWorkspacePath('a/../..')).toBeNull();
    expect(normalizeWorkspacePath('.')).toBeNull();
    expect(normalizeWorkspacePath('.\\scripts\\a.ps1')).toBe('scripts/a.ps1');
  });
});

describe('properties', () => {
  it('never returns an absolute path or one that climbs out of the workspace', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (command) => {
        for (const p of scriptPathsInCommand(command)) {
          expect(p.startsWith('/')).toBe(false);
          expect(p.split('/')).not.toContain('..');
          expect(p.split('/')).not.toContain('.');
          expect(p).not.toBe('');
        }
      }),
    );
  });
});
