/**
 * The command line's bundle ships codewhale-spawn (the supervisor's posix_spawn for its
 * process host) in dist/native/, and a real `codewhale exec` loads it: a shell command finds
 * the agent's host with the module mapped into its memory.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NATIVE_SPAWNER_FILE, nativeSpawnerPath } from '@codewhale/hooks-supervisor';
import { execShellCommands } from './run-cli.js';

const bundled = new URL(`../dist/native/${NATIVE_SPAWNER_FILE}`, import.meta.url);

// The modules mapped by the agent's process hosts, by file name. The command may have been
// spawned by the agent itself (before its first host was ready), so it finds the agent among
// its ancestors and its hosts among the agent's children (their command line carries the host
// program), waits for one, and reads its maps half a second after (it loads the module as it
// starts).
const SHOW_HOST_MODULES = [
  `a=$PPID; while [ "$a" -gt 1 ] && ! tr '\\0' ' ' < /proc/$a/cmdline | grep -q 'bin.cjs exec'; do a=$(awk '{print $4}' /proc/$a/stat); done`,
  `hosts() { for d in /proc/[0-9]*; do [ "$(awk '{print $4}' $d/stat 2>/dev/null)" = "$a" ] && tr '\\0' ' ' < $d/cmdline 2>/dev/null | grep -q process_wrap && echo \${d#/proc/}; done; }`,
  'i=0; while [ -z "$(hosts)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; sleep 0.5',
  `for h in $(hosts); do grep -o '[^/]*\\.node$' /proc/$h/maps; done | sort -u; echo "hosts: $(hosts | wc -l)"`,
].join('\n');

describe.runIf(process.platform === 'linux' && nativeSpawnerPath() !== null)('codewhale-spawn in the command line', () => {
  it('is copied next to the bundle, and the host of a real exec loads it (CODEWHALE_HOST_SPAWN=handles keeps it out)', async () => {
    expect(existsSync(bundled)).toBe(true);
    const modules = async (env: Record<string, string>): Promise<string> => (await execShellCommands(['true', SHOW_HOST_MODULES], env))[1] ?? '';
    const shipped = await modules({});
    expect(shipped).toContain(NATIVE_SPAWNER_FILE);
    expect(shipped).not.toContain('hosts: 0');
    const without = await modules({ CODEWHALE_HOST_SPAWN: 'handles' });
    expect(without).not.toContain(NATIVE_SPAWNER_FILE);
    expect(without).not.toContain('hosts: 0');
  }, 60_000);
});
