import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readlinkSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSliceWanted, HOST_SCHED_SLICE_NS, hostLaunch, PERL_PATHS, setAgentSlice, sliceLauncherScript, sliceWanted, type LaunchEnvironment } from './sched-slice.js';
import { ProcessHost } from './process-host.js';
import { PROCESS_HOST_SOURCE } from './process-host-source.js';
import { baseEnv, expectNoLeftovers } from '../test/helpers.js';

// The kernel's numbers, written out here rather than taken from the module under test.
const NR = process.arch === 'arm64' ? { get: 275, set: 274 } : { get: 315, set: 314 };
const perl = PERL_PATHS.find((p) => existsSync(p));
const [major, minor] = release().split('.').map(Number) as [number, number];
/** Linux 6.12 made `sched_runtime` a slice request for fair tasks; older kernels ignore it. */
const customSlices = major > 6 || (major === 6 && minor >= 12);

/** A command that prints its own policy, nice value and slice (`sched_getattr`). */
const SHOW = `perl -e 'my $b = "\\0" x 48; syscall(${NR.get}, 0, $b, 48, 0) == 0 or die "$!"; my @f = unpack("LLQlLQQQ", $b); print "$f[1] $f[3] $f[5]\\n"'`;

const LAUNCHER = sliceLauncherScript(NR.get, NR.set, HOST_SCHED_SLICE_NS);

function attrs(prefix: string[] = [], launcher = true): { policy: number; nice: number; slice: number } {
  // The launcher itself, whatever CODEWHALE_HOST_SLICE says in the environment of the test.
  const argv = launcher ? [...prefix, perl!, '-e', LAUNCHER, '--', '/bin/sh', '-c', SHOW] : [...prefix, '/bin/sh', '-c', SHOW];
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const [policy, nice, slice] = r.stdout.trim().split(' ').map(Number) as [number, number, number];
  return { policy, nice, slice };
}

const machine = (over: Partial<LaunchEnvironment> = {}): LaunchEnvironment => ({ platform: 'linux', arch: 'x64', setting: undefined, executable: (p) => p === '/usr/bin/perl', ...over });

describe('hostLaunch: how a host is started', () => {
  it('goes through Perl on Linux x64 and arm64, with node and the host program after "--"', () => {
    for (const arch of ['x64', 'arm64']) {
      const l = hostLaunch('/opt/node', 'SRC', true, machine({ arch }));
      expect(l.sliced).toBe(true);
      expect(l.file).toBe('/usr/bin/perl');
      expect(l.args).toEqual(['-e', sliceLauncherScript(arch === 'x64' ? 315 : 275, arch === 'x64' ? 314 : 274, HOST_SCHED_SLICE_NS), '--', '/opt/node', '--max-semi-space-size=1', '--expose-gc', '-e', 'SRC']);
    }
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ executable: (p) => p === '/bin/perl' })).file).toBe('/bin/perl');
  });

  it('starts node directly elsewhere, without Perl, when told no, and after a Perl start failed', () => {
    const direct = { file: '/opt/node', args: ['--max-semi-space-size=1', '--expose-gc', '-e', 'SRC'], sliced: false };
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ platform: 'darwin' }))).toEqual(direct);
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ arch: 'ia32' }))).toEqual(direct);
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ executable: () => false }))).toEqual(direct);
    expect(hostLaunch('/opt/node', 'SRC', false, machine())).toEqual(direct);
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ setting: ' Off ' }))).toEqual(direct);
  });

  it('reads CODEWHALE_HOST_SLICE: off, 0, false and no (any case, any spaces) say no; anything else yes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('off', 'OFF', ' 0 ', 'false', 'No', 'on', '1', '')), (s) => {
        const no = ['off', '0', 'false', 'no'].includes(s.trim().toLowerCase());
        expect(sliceWanted(s)).toBe(!no);
        expect(hostLaunch('/opt/node', 'SRC', true, machine({ setting: s })).sliced).toBe(!no);
      }),
    );
    expect(sliceWanted(undefined)).toBe(true);
  });

  it('puts only integers into the Perl program', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer({ max: -1 }), fc.constant(Number.NaN)), (n) => {
        fc.pre(!(Number.isSafeInteger(n) && n >= 0));
        expect(() => sliceLauncherScript(n, 1, 1)).toThrow(RangeError);
        expect(() => sliceLauncherScript(1, n, 1)).toThrow(RangeError);
        expect(() => sliceLauncherScript(1, 1, n)).toThrow(RangeError);
      }),
    );
    // A process id: a positive safe integer (0 would name the launcher itself).
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer({ max: 0 }), fc.constant(Number.NaN), fc.constant(2 ** 53)), (n) => {
        fc.pre(!(Number.isSafeInteger(n) && n >= 1));
        expect(() => sliceLauncherScript(1, 1, 1, n)).toThrow(RangeError);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (pid) => {
        expect(sliceLauncherScript(315, 314, 100_000, pid)).toContain(`slice(${pid}) if getppid() == ${pid};`);
      }),
    );
    expect(sliceLauncherScript(315, 314, 100_000)).not.toContain('getppid');
  });

  it("names the agent's pid to the launcher only when asked, and only in a launch through Perl", () => {
    const withAgent = hostLaunch('/opt/node', 'SRC', true, machine({ agentPid: 4242 }));
    expect(withAgent.args[1]).toBe(sliceLauncherScript(315, 314, HOST_SCHED_SLICE_NS, 4242));
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ agentPid: null })).args[1]).toBe(sliceLauncherScript(315, 314, HOST_SCHED_SLICE_NS));
    expect(hostLaunch('/opt/node', 'SRC', true, machine()).args[1]).toBe(sliceLauncherScript(315, 314, HOST_SCHED_SLICE_NS));
    // Where the host starts directly, nothing asks for anything.
    expect(hostLaunch('/opt/node', 'SRC', true, machine({ agentPid: 4242, setting: 'off' })).args.join(' ')).not.toContain('4242');
    expect(hostLaunch('/opt/node', 'SRC', false, machine({ agentPid: 4242 })).args.join(' ')).not.toContain('4242');
  });

  it.runIf(process.platform === 'linux' && perl !== undefined && (process.arch === 'x64' || process.arch === 'arm64'))(
    "setAgentSlice: this process's pid goes to the launcher of the next host while it is on, and is off by default",
    () => {
      const saved = process.env.CODEWHALE_HOST_SLICE;
      delete process.env.CODEWHALE_HOST_SLICE;
      try {
        expect(agentSliceWanted()).toBe(false);
        expect(hostLaunch(process.execPath, 'SRC', true).args[1]).not.toContain('getppid');
        setAgentSlice(true);
        expect(agentSliceWanted()).toBe(true);
        expect(hostLaunch(process.execPath, 'SRC', true).args[1]).toContain(`slice(${process.pid}) if getppid() == ${process.pid};`);
        setAgentSlice(false);
        expect(hostLaunch(process.execPath, 'SRC', true).args[1]).not.toContain('getppid');
      } finally {
        setAgentSlice(false);
        if (saved === undefined) delete process.env.CODEWHALE_HOST_SLICE;
        else process.env.CODEWHALE_HOST_SLICE = saved;
      }
    },
  );
});

describe.runIf(process.platform === 'linux' && perl !== undefined)('the Perl launcher, on this kernel', () => {
  const base = attrs([], false);

  it('asks for the short slice and execs its arguments (exit 127 when it cannot)', () => {
    expect(attrs()).toEqual({ policy: base.policy, nice: base.nice, slice: customSlices ? HOST_SCHED_SLICE_NS : base.slice });
    const r = spawnSync(perl!, ['-e', LAUNCHER, '--', '/nonexistent/node'], { encoding: 'utf8' });
    expect(r.status).toBe(127);
  });

  it('keeps the nice value, the policy (SCHED_BATCH gets the slice; SCHED_IDLE is left alone), and runs unprivileged', () => {
    expect(attrs(['nice', '-n', '5'])).toMatchObject({ policy: 0, nice: base.nice + 5 > 19 ? 19 : base.nice + 5 });
    expect(attrs(['chrt', '--batch', '0'])).toEqual({ policy: 3, nice: base.nice, slice: customSlices ? HOST_SCHED_SLICE_NS : base.slice });
    const idle = attrs(['chrt', '--idle', '0']);
    expect(idle.policy).toBe(5);
    expect(idle).toEqual(attrs(['chrt', '--idle', '0'], false));
    if (process.getuid?.() === 0) {
      expect(attrs(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'nice', '-n', '3'])).toMatchObject({ nice: base.nice + 3, slice: customSlices ? HOST_SCHED_SLICE_NS : base.slice });
    }
  });
});

describe.runIf(process.platform === 'linux' && perl !== undefined)("the Perl launcher and its parent's main thread", () => {
  // Above the kernel's largest pid (2^22), so never a real one: the agent puts its own in its place.
  const PLACEHOLDER = 4_194_305;
  const launcher = sliceLauncherScript(NR.get, NR.set, HOST_SCHED_SLICE_NS, PLACEHOLDER);
  /**
   * A Node process, the agent, runs the launcher (naming its own pid) as its child, or as a
   * grandchild under `sh` when `viaShell`, and then prints its own attributes (SHOW, spawned
   * from its main thread, inherits them).
   */
  function agent(prefix: string[] = [], viaShell = false): { policy: number; nice: number; slice: number } {
    const code = `const { spawnSync } = require('node:child_process');
const script = process.argv[1].replaceAll('${PLACEHOLDER}', String(process.pid));
const argv = ${viaShell} ? ['/bin/sh', '-c', '"$0" -e "$1" -- /bin/true', ${JSON.stringify(perl)}, script] : [${JSON.stringify(perl)}, '-e', script, '--', '/bin/true'];
const l = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' });
if (l.status !== 0) process.exit(3);
const r = spawnSync('/bin/sh', ['-c', process.argv[2]], { encoding: 'utf8' });
process.stdout.write(r.stdout);`;
    const argv = [...prefix, process.execPath, '-e', code, launcher, SHOW];
    const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [policy, nice, slice] = r.stdout.trim().split(' ').map(Number) as [number, number, number];
    return { policy, nice, slice };
  }
  const base = attrs([], false);

  it('gives the slice to the process that started it when named, keeping its policy and nice value', () => {
    expect(agent()).toEqual({ policy: base.policy, nice: base.nice, slice: customSlices ? HOST_SCHED_SLICE_NS : base.slice });
    expect(agent(['nice', '-n', '4'])).toMatchObject({ nice: Math.min(19, base.nice + 4), slice: customSlices ? HOST_SCHED_SLICE_NS : base.slice });
    expect(agent(['chrt', '--batch', '0'])).toEqual({ policy: 3, nice: base.nice, slice: customSlices ? HOST_SCHED_SLICE_NS : base.slice });
  });

  it('leaves a named process alone when it is not its parent, and one whose policy is SCHED_IDLE', () => {
    expect(agent([], true)).toEqual(base);
    const idle = agent(['chrt', '--idle', '0']);
    expect(idle.policy).toBe(5);
    expect(idle.slice).toBe(attrs(['chrt', '--idle', '0'], false).slice);
  });
});

describe.runIf(process.platform === 'linux' && perl !== undefined)('a host started through Perl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cw-slice-'));
  const spawned: number[] = [];
  const hosts: ProcessHost[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) h.close();
    await expectNoLeftovers(spawned);
    spawned.length = 0;
  });
  /** The slice of a hook run by `host` (the hook prints its own). */
  const slice = async (host: ProcessHost): Promise<number> => {
    const { done } = host.run({ mode: 'hook', file: '/bin/sh', args: ['-c', SHOW], cwd: dir, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'], input: null, stdoutMax: 1024, stderrMax: 1024, timeoutMs: 10_000, graceMs: 1_000, reapMs: 1_000, drainMs: 1_000, shutdownMs: 1_000 }, (pid) => spawned.push(pid));
    const r = await done;
    expect(r.exitCode, String(r.stderr)).toBe(0);
    return Number(String(r.stdout).trim().split(' ')[2]);
  };

  it('is node under its own pid, and the hooks it spawns inherit its slice; CODEWHALE_HOST_SLICE=off starts it directly', async () => {
    const base = attrs([], false).slice;
    const host = new ProcessHost();
    hosts.push(host);
    await host.start();
    expect(host.sliced).toBe(true);
    expect(readlinkSync(`/proc/${host.pid}/exe`)).toBe(readlinkSync(`/proc/${process.pid}/exe`));
    expect(readFileSync(`/proc/${host.pid}/cmdline`, 'utf8')).toContain(PROCESS_HOST_SOURCE.slice(0, 40));
    expect(await slice(host)).toBe(customSlices ? HOST_SCHED_SLICE_NS : base);

    const saved = process.env.CODEWHALE_HOST_SLICE;
    process.env.CODEWHALE_HOST_SLICE = 'off';
    try {
      const plain = new ProcessHost();
      hosts.push(plain);
      await plain.start();
      expect(plain.sliced).toBe(false);
      expect(await slice(plain)).toBe(base);
    } finally {
      if (saved === undefined) delete process.env.CODEWHALE_HOST_SLICE;
      else process.env.CODEWHALE_HOST_SLICE = saved;
    }
  });

  it('falls back to a direct start for good once a host started through Perl dies before it is ready', async () => {
    const asked: boolean[] = [];
    const host = new ProcessHost({
      launch: (allowed) => {
        asked.push(allowed);
        // A launcher that fails before node starts, as a broken Perl would.
        return allowed ? { file: '/bin/sh', args: ['-c', 'exit 3'], sliced: true } : hostLaunch(process.execPath, PROCESS_HOST_SOURCE, false);
      },
    });
    hosts.push(host);
    await host.start();
    expect(host.ready).toBe(false);
    await host.start();
    expect(host.ready).toBe(true);
    expect(host.sliced).toBe(false);
    expect(asked).toEqual([true, false]);
    expect(host.unavailable).toBe(false);
    expect(await slice(host)).toBe(attrs([], false).slice);
  });
});
