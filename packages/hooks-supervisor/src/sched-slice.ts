import { accessSync, constants } from 'node:fs';
import { HOST_NODE_OPTIONS } from './process-host-source.js';
import { processState } from './process-state.js';

/**
 * A short scheduler slice for the process host (Linux 6.12 and later; see the supervisor's
 * README, "A short scheduler slice", and docs/design-notes.md for the measurements).
 *
 * Since Linux 6.12 the fair scheduler (EEVDF) lets an unprivileged task ask for a shorter
 * slice (`sched_setattr` with `sched_runtime`, 0.1–100 ms, for `SCHED_OTHER` and
 * `SCHED_BATCH`). It changes no share of the CPU (the nice value stays), only how soon the
 * task runs after it wakes up while the CPU is busy: a task with a shorter slice has an
 * earlier deadline, so it may preempt a CPU-bound task at once instead of waiting for that
 * task's slice (1.4 ms here) to end. Every gate is a chain of such wake-ups (the host on the
 * request, each hook at its start, the host at each hook's exit), and under load those waits
 * are much of what a gate costs beyond its spawn.
 *
 * Node has no binding for the call, so the host is started through Perl (`perl-base` is part
 * of every Debian and Ubuntu system), which makes it for itself and then `exec`s Node: the
 * host keeps the pid, and every process it spawns inherits the slice. The call is made from
 * the slice the host would inherit: policy, nice value and the reset-on-fork flag are kept,
 * and nothing is changed unless the policy is `SCHED_OTHER` or `SCHED_BATCH`. A kernel older
 * than 6.12 accepts the call and ignores the value; one without the call (or a seccomp filter
 * that refuses it) leaves the host as it was. Either way the host starts.
 */

/** The slice asked for, in nanoseconds: the kernel's smallest (0.1 ms). */
export const HOST_SCHED_SLICE_NS = 100_000;

/** `sched_getattr` / `sched_setattr` by architecture (Node's `process.arch`). */
const SYSCALLS: Readonly<Record<string, readonly [get: number, set: number]>> = {
  x64: [315, 314],
  arm64: [275, 274],
};

/** Where Perl is looked for: absolute paths only (no `PATH` search, as for `/bin/sh`). */
export const PERL_PATHS: readonly string[] = ['/usr/bin/perl', '/bin/perl'];

/**
 * The Perl program that asks for `sliceNs` and then `exec`s its arguments (`struct sched_attr`
 * in its first, 48-byte form: size, policy, flags, nice, priority, runtime, deadline, period).
 * With `agentPid` it asks for the same slice for that thread too, but only while it is still
 * the launcher's parent (the process that spawned it, whose main thread has its pid): see
 * {@link setAgentSlice}.
 */
export function sliceLauncherScript(getNr: number, setNr: number, sliceNs: number, agentPid: number | null = null): string {
  for (const n of [getNr, setNr, sliceNs]) if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a non-negative integer: ${n}`);
  if (agentPid !== null && (!Number.isSafeInteger(agentPid) || agentPid < 1)) throw new RangeError(`not a process id: ${agentPid}`);
  return [
    'sub slice { my $p = shift; my $a = "\\0" x 48;',
    `  if (syscall(${getNr}, $p, $a, 48, 0) == 0) {`,
    '    my @f = unpack("LLQlLQQQ", $a);',
    `    if ($f[1] == 0 || $f[1] == 3) { my $b = pack("LLQlLQQQ", 48, $f[1], $f[2] & 1, $f[3], 0, ${sliceNs}, 0, 0); syscall(${setNr}, $p, $b, 0); }`,
    '  }',
    '}',
    'slice(0);',
    ...(agentPid === null ? [] : [`slice(${agentPid}) if getppid() == ${agentPid};`]),
    'exec { $ARGV[0] } @ARGV;',
    'exit 127;',
  ].join(' ');
}

/** How to start a host: the file and arguments for `spawn`, and whether a slice is asked for. */
export interface HostLaunch {
  readonly file: string;
  readonly args: readonly string[];
  readonly sliced: boolean;
}

/** What {@link hostLaunch} looks at, so tests can give it another machine. */
export interface LaunchEnvironment {
  readonly platform: string;
  readonly arch: string;
  readonly setting: string | undefined;
  readonly executable: (path: string) => boolean;
  /**
   * The process whose main thread the launcher should give the slice too (this process, when
   * {@link setAgentSlice} asked for it), or null / absent for none.
   */
  readonly agentPid?: number | null;
}

/**
 * `CODEWHALE_HOST_SLICE=off` (or `0`, `false`, `no`) starts the host without asking for a
 * slice. Any other value, or none, asks for it where it can be asked for.
 */
export function sliceWanted(setting: string | undefined): boolean {
  const v = (setting ?? '').trim().toLowerCase();
  return !(v === 'off' || v === '0' || v === 'false' || v === 'no');
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * How to start `node <HOST_NODE_OPTIONS> -e <source>` as a host: through Perl with a short
 * slice on Linux x64 and arm64 when Perl is there and the setting does not say no, directly
 * otherwise (and always when `allowSlice` is false: after a host started through Perl died
 * before it was ready). Through Perl, and while {@link setAgentSlice} is on, the launcher asks
 * for the same slice for this process's main thread too (`env.agentPid`).
 */
export function hostLaunch(
  nodePath: string,
  source: string,
  allowSlice: boolean,
  env: LaunchEnvironment = { platform: process.platform, arch: process.arch, setting: process.env.CODEWHALE_HOST_SLICE, executable, agentPid: agentSliceWanted() ? process.pid : null },
): HostLaunch {
  const node = [...HOST_NODE_OPTIONS, '-e', source];
  const direct: HostLaunch = { file: nodePath, args: node, sliced: false };
  const nrs = SYSCALLS[env.arch];
  if (!allowSlice || env.platform !== 'linux' || !nrs || !sliceWanted(env.setting)) return direct;
  const perl = PERL_PATHS.find((p) => env.executable(p));
  if (!perl) return direct;
  return { file: perl, args: ['-e', sliceLauncherScript(nrs[0], nrs[1], HOST_SCHED_SLICE_NS, env.agentPid ?? null), '--', nodePath, ...node], sliced: true };
}

/**
 * Whether a host started through Perl should also give this process's main thread the short
 * slice (off unless {@link setAgentSlice} turned it on).
 */
export function agentSliceWanted(): boolean {
  return processState().agentSlice === true;
}

/**
 * Ask for the host's short slice for this process's main thread too: the next host started
 * through Perl (the first host of the process, or one after a death) makes the same call for
 * the thread whose id is this process's pid, once it has checked that this process is still
 * its parent, and under the same rules (policy, nice value and reset-on-fork kept; nothing
 * changed unless the policy is `SCHED_OTHER` or `SCHED_BATCH`). The main thread runs the event
 * loop, so under load it gets the CPU back sooner when it wakes or is preempted (a hook's or a
 * shell command's start, a result, a key press); its share of the CPU does not change. Threads
 * and processes it creates afterwards inherit the slice (as hooks and shell commands inherit
 * the host's); threads that exist already keep theirs.
 *
 * Off by default: a library should not change the scheduling of the program that embeds it.
 * The `codewhale` command line turns it on for the commands that run sessions. Nothing is
 * asked where the host is not started through Perl (another platform, no Perl,
 * `CODEWHALE_HOST_SLICE=off`, the in-process mode). Turning it off again asks for nothing more
 * and undoes nothing: the slice stays until the thread ends.
 */
export function setAgentSlice(wanted: boolean): void {
  processState().agentSlice = wanted;
}
