/**
 * The commands that run sessions give their own main thread the process host's short
 * scheduler slice (Linux 6.12 and later, through the Perl launcher that starts the host; see
 * the supervisor's README, "A short scheduler slice"). Read from the kernel: a shell command
 * of a real `codewhale exec` finds the agent among its ancestors and prints its `se.slice`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { release } from 'node:os';
import { describe, expect, it } from 'vitest';
import { execShellCommands } from './run-cli.js';

const [major, minor] = release().split('.').map(Number) as [number, number];
const customSlices = major > 6 || (major === 6 && minor >= 12);
const ownSlice = (): number | null => {
  try {
    const m = /^se\.slice\s*:\s*(\d+)/m.exec(readFileSync('/proc/self/sched', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
};
const perl = ['/usr/bin/perl', '/bin/perl'].some((p) => existsSync(p));
const supported = process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64') && perl && customSlices && ownSlice() !== null;

// Walks up from the command's parent to the `codewhale exec` process and prints its slice.
const SHOW_AGENT = `p=$PPID; while [ "$p" -gt 1 ]; do if tr '\\0' ' ' < /proc/$p/cmdline | grep -q 'bin.cjs exec'; then sed -n 's/^se\\.slice *: *//p' /proc/$p/sched; break; fi; p=$(awk '{print $4}' /proc/$p/stat); done`;

/** The agent's slice as its last shell command saw it (the host may still start during the first). */
async function agentSlice(env: Record<string, string> = {}): Promise<number> {
  const tools = await execShellCommands([SHOW_AGENT, `sleep 0.3; ${SHOW_AGENT}`], env);
  const last = /^(\d+)\n/.exec(tools[1] ?? '');
  expect(last, tools.join(' | ')).not.toBeNull();
  return Number(last![1]);
}

describe.runIf(supported)("the agent's scheduler slice", () => {
  it('is the host\'s 0.1 ms for `codewhale exec`, and stays as inherited with CODEWHALE_HOST_SLICE=off', async () => {
    expect(await agentSlice()).toBe(100_000);
    expect(await agentSlice({ CODEWHALE_HOST_SLICE: 'off' })).toBe(ownSlice());
  }, 60_000);
});
