// Small helpers shared by the benchmarks.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

export function time(fn, { minMs = 300, minRuns = 3 } = {}) {
  const runs = [];
  const start = performance.now();
  while (runs.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)];
}

export async function timeAsync(fn, { runs = 20, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p90: samples[Math.floor(samples.length * 0.9)] };
}

export const round = (n, d = 2) => Number(n.toFixed(d));

/**
 * How many times the calling thread has been preempted so far (its involuntary context
 * switches, from /proc/thread-self/status; Linux), or null where that cannot be read. Read
 * before and after a timed section, it tells a stall spent waiting for a CPU from one spent
 * working. `process.cpuUsage()` cannot: it counts every thread of the process, V8's compiler
 * and collector threads too, which run while the main thread waits.
 */
export function preemptions() {
  try {
    const m = /nonvoluntary_ctxt_switches:\s*(\d+)/.exec(readFileSync('/proc/thread-self/status', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * This process's main-thread scheduler slice in nanoseconds (`se.slice` in /proc/self/sched,
 * Linux with the scheduler's debug information), or null where that cannot be read.
 */
export function mainThreadSlice() {
  try {
    const m = /^se\.slice\s*:\s*(\d+)/m.exec(readFileSync('/proc/self/sched', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Ask for a scheduler slice of `ns` for this process's main thread (0: the kernel's default),
 * through Perl, as the process host's launcher does for itself and, in the `codewhale`
 * command line, for the agent (packages/hooks-supervisor/src/sched-slice.ts). Linux x64 and
 * arm64 with Perl only; elsewhere nothing happens. Policy, nice value and reset-on-fork are kept.
 */
export function setMainThreadSlice(ns) {
  const nrs = { x64: [315, 314], arm64: [275, 274] }[process.arch];
  const perl = ['/usr/bin/perl', '/bin/perl'].find((p) => existsSync(p));
  if (process.platform !== 'linux' || !nrs || !perl || !Number.isSafeInteger(ns) || ns < 0) return false;
  const script = `my $a = "\\0" x 48; if (syscall(${nrs[0]}, ${process.pid}, $a, 48, 0) == 0) { my @f = unpack("LLQlLQQQ", $a); if ($f[1] == 0 || $f[1] == 3) { exit(syscall(${nrs[1]}, ${process.pid}, pack("LLQlLQQQ", 48, $f[1], $f[2] & 1, $f[3], 0, ${ns}, 0, 0), 0) == 0 ? 0 : 1); } } exit 1;`;
  return spawnSync(perl, ['-e', script], { stdio: 'ignore' }).status === 0;
}

/**
 * One busy process per core, each in a session of its own unless `ownSession` is false (then
 * in this process's session: its scheduling group, under sched_autogroup). A burner outside
 * our session gets no SIGHUP or Ctrl-C from our terminal, so each one also ends itself once
 * its parent is gone. Returns the processes; kill them with SIGKILL.
 */
export function cpuBurners(ownSession = true) {
  const burn = 'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(0); }';
  return Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', burn], { stdio: 'ignore', detached: ownSession }));
}

/** A home and a workspace for one `codewhale exec` conversation, and the `[hooks]` text of `gates` `true` gates. */
export function execSandbox(gates, prefix = 'cw-bench-e2e-') {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  const hooks = gates === 0 ? '' : `[hooks]\n${Array.from({ length: gates }, (_, i) => `[[hooks.hooks]]\nname = "gate${i}"\nevent = "tool_call_before"\ncommand = "true"\n`).join('\n')}`;
  return { home, ws, hooks };
}

/**
 * The environment of a desktop terminal, as a running agent inherits it: 73 variables and about
 * 3.6 KB, modelled on a GNOME terminal on Ubuntu with nvm, cargo and a Python virtualenv (the
 * values are made up, their sizes are not: `LS_COLORS` alone is ~1.5 KB). The locale is
 * `C.UTF-8`, which every Debian has, so the Perl that starts the sliced floors does not warn.
 * The variables in `own` win. Every hook inherits the whole environment (docs/hooks-guide.md,
 * "What a hook is"), so its size is part of every hook's spawn; a shell command gets only an
 * allowlist of it (packages/engine/src/tools/child-env.ts). A benchmark that spawned with
 * three variables would flatter the hooks.
 */
export function terminalEnv(own) {
  const user = 'dev';
  const home = `/home/${user}`;
  const colors = ['rs=0', 'di=01;34', 'ln=01;36', 'mh=00', 'pi=40;33', 'so=01;35', 'do=01;35', 'bd=40;33;01', 'cd=40;33;01', 'or=40;31;01', 'mi=00', 'su=37;41', 'sg=30;43', 'ca=00', 'tw=30;42', 'ow=34;42', 'st=37;44', 'ex=01;32'];
  for (const ext of 'tar tgz arc arj taz lha lz4 lzh lzma tlz txz tzo t7z zip z dz gz lrz lz lzo xz zst tzst bz2 bz tbz tbz2 tz deb rpm jar war ear sar rar alz ace zoo cpio 7z rz cab wim swm dwm esd avif jpg jpeg mjpg mjpeg gif bmp pbm pgm ppm tga xbm xpm tif tiff png svg svgz mng pcx mov mpg mpeg m2v mkv webm webp ogm mp4 m4v mp4v vob qt nuv wmv asf rm rmvb flc avi fli flv gl dl xcf xwd yuv cgm emf ogv ogx aac au flac m4a mid midi mka mp3 mpc ogg ra wav oga opus spx xspf'.split(' ')) colors.push(`*.${ext}=${ext.length > 3 ? '01;35' : '01;31'}`);
  return {
    SHELL: '/bin/bash',
    SESSION_MANAGER: `local/devbox:@/tmp/.ICE-unix/2291,unix/devbox:/tmp/.ICE-unix/2291`,
    QT_ACCESSIBILITY: '1',
    COLORTERM: 'truecolor',
    XDG_CONFIG_DIRS: '/etc/xdg/xdg-ubuntu:/etc/xdg',
    SSH_AGENT_LAUNCHER: 'gnome-keyring',
    XDG_MENU_PREFIX: 'gnome-',
    GNOME_DESKTOP_SESSION_ID: 'this-is-deprecated',
    LANGUAGE: 'en_US:en',
    LC_ADDRESS: 'C.UTF-8',
    GNOME_SHELL_SESSION_MODE: 'ubuntu',
    LC_NAME: 'C.UTF-8',
    SSH_AUTH_SOCK: '/run/user/1000/keyring/ssh',
    XMODIFIERS: '@im=ibus',
    DESKTOP_SESSION: 'ubuntu',
    LC_MONETARY: 'C.UTF-8',
    GTK_MODULES: 'gail:atk-bridge',
    PWD: `${home}/src/project`,
    LOGNAME: user,
    XDG_SESSION_DESKTOP: 'ubuntu',
    XDG_SESSION_TYPE: 'wayland',
    SYSTEMD_EXEC_PID: '2318',
    XAUTHORITY: '/run/user/1000/.mutter-Xwaylandauth.7K2SX2',
    NVM_DIR: `${home}/.nvm`,
    NVM_CD_FLAGS: '',
    NVM_BIN: `${home}/.nvm/versions/node/v20.18.1/bin`,
    NVM_INC: `${home}/.nvm/versions/node/v20.18.1/include/node`,
    VIRTUAL_ENV: `${home}/src/project/.venv`,
    VIRTUAL_ENV_PROMPT: '(.venv) ',
    CARGO_HOME: `${home}/.cargo`,
    RUSTUP_HOME: `${home}/.rustup`,
    GOPATH: `${home}/go`,
    EDITOR: 'vim',
    VISUAL: 'vim',
    PAGER: 'less',
    LESSOPEN: '| /usr/bin/lesspipe %s',
    LESSCLOSE: '/usr/bin/lesspipe %s %s',
    HOME: home,
    USERNAME: user,
    IM_CONFIG_PHASE: '1',
    LANG: 'C.UTF-8',
    LS_COLORS: colors.join(':') + ':',
    XDG_CURRENT_DESKTOP: 'ubuntu:GNOME',
    VTE_VERSION: '7600',
    WAYLAND_DISPLAY: 'wayland-0',
    GNOME_TERMINAL_SCREEN: '/org/gnome/Terminal/screen/4c0f0c43_9bd4_4c6e_8e0e_5f0b0e6f4a11',
    GNOME_SETUP_DISPLAY: ':1',
    LC_IDENTIFICATION: 'C.UTF-8',
    XDG_SESSION_CLASS: 'user',
    TERM: 'xterm-256color',
    LC_TELEPHONE: 'C.UTF-8',
    USER: user,
    GNOME_TERMINAL_SERVICE: ':1.139',
    DISPLAY: ':0',
    SHLVL: '1',
    LC_NUMERIC: 'C.UTF-8',
    QT_IM_MODULE: 'ibus',
    LC_MEASUREMENT: 'C.UTF-8',
    XDG_RUNTIME_DIR: '/run/user/1000',
    DEBUGINFOD_URLS: 'https://debuginfod.ubuntu.com ',
    LC_TIME: 'C.UTF-8',
    XDG_DATA_DIRS: '/usr/share/ubuntu:/usr/share/gnome:/usr/local/share/:/usr/share/:/var/lib/snapd/desktop',
    PATH: `${home}/src/project/.venv/bin:${home}/.nvm/versions/node/v20.18.1/bin:${home}/.cargo/bin:${home}/.local/bin:${home}/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games:/snap/bin`,
    GDMSESSION: 'ubuntu',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
    LC_PAPER: 'C.UTF-8',
    HISTCONTROL: 'ignoreboth',
    HISTSIZE: '10000',
    HISTFILESIZE: '20000',
    PROMPT_COMMAND: '__vte_prompt_command',
    MANPATH: `${home}/.nvm/versions/node/v20.18.1/share/man:/usr/local/man:/usr/local/share/man:/usr/share/man`,
    OLDPWD: `${home}/src`,
    _: '/usr/bin/env',
    ...own,
  };
}

/** A process's CPU time so far (user + system), in ms, from /proc/<pid>/stat (Linux; USER_HZ 100); NaN where unreadable. */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
