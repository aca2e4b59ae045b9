/**
 * One process host per process, across the copies of the supervisor a real program holds: the
 * CLI's own bundled (and minified) copy, which `/hooks test` inside the interactive UI runs,
 * and the package from node_modules, which `@codewhale/tui`'s sessions use.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

const here = dirname(fileURLToPath(import.meta.url));
const cliDist = join(here, '..', 'dist', 'index.js');
// The package as an installed dependency sees it (its built entry, not the source condition).
const supervisorDist = join(here, '..', 'node_modules', '@codewhale', 'hooks-supervisor', 'dist', 'index.js');

describe('the process host', () => {
  it("is one, shared by the CLI's bundled copy of the supervisor and the package from node_modules", () => {
    // The CLI's copy really is its own (bundled, not imported).
    expect(readFileSync(cliDist, 'utf8')).not.toMatch(/from ["']@codewhale\/hooks-supervisor["']/);
    const sb = sandbox();
    const parents = join(sb.dir, 'parents');
    sb.config(`[[hooks.hooks]]\nname = "who"\nevent = "tool_call_before"\ncommand = "echo $PPID >> ${parents}"\n`);
    const script = `import { readdirSync, readFileSync } from 'node:fs';
const sup = await import(${JSON.stringify(pathToFileURL(supervisorDist).href)});
const cli = await import(${JSON.stringify(pathToFileURL(cliDist).href)});
sup.setSpawnMode('host');
await sup.sharedProcessHost().start();
let out = '';
const io = { stdout: (t) => (out += t), stderr: (t) => (out += t), env: { PATH: process.env.PATH, HOME: ${JSON.stringify(sb.dir)}, CODEWHALE_HOME: ${JSON.stringify(sb.home)}, NO_COLOR: '1' }, cwd: ${JSON.stringify(sb.ws)}, isTTY: false };
const codes = [];
for (let i = 0; i < 3; i++) codes.push(await cli.main(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}'], io));
// Every process host this process started: a child running node -e with the host program.
const hosts = [];
for (const p of readdirSync('/proc')) {
  if (!/^[0-9]+$/.test(p)) continue;
  try {
    const stat = readFileSync('/proc/' + p + '/stat', 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === process.pid && readFileSync('/proc/' + p + '/cmdline', 'utf8').includes("'use strict';")) hosts.push(Number(p));
  } catch {}
}
console.log(JSON.stringify({ codes, hostPid: sup.sharedProcessHost().pid, hosts, out: out.slice(-300) }));
sup.sharedProcessHost().close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    const o = JSON.parse(r.stdout) as { codes: number[]; hostPid: number; hosts: number[]; out: string };
    expect(o.codes, o.out).toEqual([0, 0, 0]);
    expect(o.hosts).toEqual([o.hostPid]);
    // Every hook the CLI's copy ran was a child of the host the other copy started.
    expect(readFileSync(parents, 'utf8').trim().split('\n').map(Number)).toEqual([o.hostPid, o.hostPid, o.hostPid]);
  }, 30_000);
});
