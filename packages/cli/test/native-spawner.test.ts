/**
 * The command line's bundle ships the prebuilt codewhale-spawn files (the supervisor's
 * posix_spawn) in dist/native/, and a real `codewhale exec` starts its shell commands with
 * it: the command finds the module mapped into its parent, the agent. With
 * `CODEWHALE_SPAWN=child_process` it is never loaded.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeModulePath } from '@codewhale/hooks-supervisor';
import { execShellCommands } from './run-cli.js';

const own = nativeModulePath();

describe.runIf(process.platform === 'linux' && own !== null)('codewhale-spawn in the command line', () => {
  it('is next to the bundle for every target, and a real exec loads it (CODEWHALE_SPAWN=child_process keeps it out)', async () => {
    for (const target of ['linux-x64-gnu', 'linux-x64-musl', 'linux-arm64-gnu', 'linux-arm64-musl']) {
      const built = existsSync(new URL(`../../hooks-supervisor/dist/native/codewhale-spawn.${target}.node`, import.meta.url));
      // Whatever the supervisor's build made, the command line ships.
      expect(existsSync(new URL(`../dist/native/codewhale-spawn.${target}.node`, import.meta.url)), target).toBe(built);
    }
    const file = basename(own!);
    const show = 'echo "parent: $(tr "\\0" " " < /proc/$PPID/cmdline | grep -c "bin.cjs exec")"; grep -o "[^/]*\\.node$" /proc/$PPID/maps | sort -u';
    const shipped = (await execShellCommands([show]))[0] ?? '';
    expect(shipped).toContain('parent: 1');
    expect(shipped).toContain(file);
    const without = (await execShellCommands([show], { CODEWHALE_SPAWN: 'child_process' }))[0] ?? '';
    expect(without).toContain('parent: 1');
    expect(without).not.toContain(file);
  }, 60_000);
});
