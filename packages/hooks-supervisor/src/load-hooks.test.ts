import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveProjectHooks, revokeProjectHooks, setWorkspaceTrust } from '@codewhale/hooks-config';
import { loadHookConfiguration, projectRevocationCheck, resolvePaths, sha256Hex, REVOKED_ERROR } from './load-hooks.js';

function setup(config: string, project?: string, script?: string) {
  const home = mkdtempSync(join(tmpdir(), 'cw-home-'));
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'cw-ws-')));
  writeFileSync(join(home, 'config.toml'), config);
  if (project !== undefined) {
    mkdirSync(join(ws, '.codewhale/hooks'), { recursive: true });
    writeFileSync(join(ws, '.codewhale/hooks.toml'), project);
  }
  if (script !== undefined) writeFileSync(join(ws, '.codewhale/hooks/gate.sh'), script);
  const paths = resolvePaths({ CODEWHALE_HOME: home });
  return { home, ws, paths };
}

const GLOBAL = `[hooks]\nenabled = true\n\n[[hooks.hooks]]\nname = "g"\nevent = "session_start"\ncommand = "true"\n`;
const PROJECT = `[[hooks]]\nname = "p"\nevent = "tool_call_before"\ncommand = "./.codewhale/hooks/gate.sh"\n`;

function approve(paths: ReturnType<typeof resolvePaths>, ws: string, digest: string): void {
  let text = readFileSync(paths.configPath, 'utf8');
  const trusted = setWorkspaceTrust(text, ws, true);
  if (!trusted.ok) throw new Error('trust');
  text = trusted.value;
  const scripts = new Map([['.codewhale/hooks/gate.sh', sha256Hex(readFileSync(join(ws, '.codewhale/hooks/gate.sh')))]]);
  const r = approveProjectHooks({ configText: text, workspace: ws, projectFile: readFileSync(join(ws, '.codewhale/hooks.toml')), digest, sha256: sha256Hex, scriptDigests: scripts });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  writeFileSync(paths.configPath, r.value.configText);
}

describe('loadHookConfiguration', () => {
  it('resolves CODEWHALE_HOME and the config path override', () => {
    expect(resolvePaths({ CODEWHALE_HOME: '/h' })).toEqual({ home: '/h', configPath: '/h/config.toml', auditLog: '/h/audit.log' });
    expect(resolvePaths({ CODEWHALE_HOME: '/h', CODEWHALE_CONFIG_PATH: '/c.toml' }).configPath).toBe('/c.toml');
    expect(resolvePaths({ CODEWHALE_HOME: '/h' }, '/flag.toml').configPath).toBe('/flag.toml');
  });

  it('means no hooks when there is no config file', () => {
    const paths = resolvePaths({ CODEWHALE_HOME: mkdtempSync(join(tmpdir(), 'cw-empty-')) });
    const r = loadHookConfiguration({ paths });
    expect(r.ok && r.value.loaded.set.hooks).toEqual([]);
    expect(r.ok && r.value.configExists).toBe(false);
  });

  it('reports a TOML syntax error in the user config with file, line and column', () => {
    const { paths } = setup('[hooks]\nenabled = tru\n');
    const r = loadHookConfiguration({ paths });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ code: 'toml_syntax', file: paths.configPath, line: 2 });
  });

  it('loads project hooks only once the workspace is trusted and the exact bytes and scripts are approved', () => {
    const { paths, ws } = setup(GLOBAL, PROJECT, '#!/bin/sh\nexit 0\n');
    let r = loadHookConfiguration({ paths, workspace: ws });
    if (!r.ok) throw new Error('load');
    expect(r.value.loaded.set.hooks.map((h) => h.label)).toEqual(['g']);
    expect(r.value.loaded.project?.state).toBe('pending');
    approve(paths, ws, r.value.loaded.project!.digest!);
    r = loadHookConfiguration({ paths, workspace: ws });
    if (!r.ok) throw new Error('load');
    expect(r.value.loaded.project?.state).toBe('approved');
    expect(r.value.loaded.set.hooks.map((h) => [h.label, h.source])).toEqual([
      ['g', 'global'],
      ['p', 'project'],
    ]);
    // A changed pinned script unloads them again.
    writeFileSync(join(ws, '.codewhale/hooks/gate.sh'), '#!/bin/sh\nexit 2\n');
    r = loadHookConfiguration({ paths, workspace: ws });
    if (!r.ok) throw new Error('load');
    expect(r.value.loaded.project?.state).toBe('changed');
    expect(r.value.loaded.set.hooks.map((h) => h.label)).toEqual(['g']);
  });

  it('revocation takes effect at once for project hooks only', () => {
    const { paths, ws } = setup(GLOBAL, PROJECT, '#!/bin/sh\n');
    const first = loadHookConfiguration({ paths, workspace: ws });
    if (!first.ok) throw new Error('load');
    approve(paths, ws, first.value.loaded.project!.digest!);
    const r = loadHookConfiguration({ paths, workspace: ws });
    if (!r.ok) throw new Error('load');
    const check = projectRevocationCheck(r.value);
    const [g, p] = r.value.loaded.set.hooks;
    expect(check(p!)).toBeNull();
    const revoked = revokeProjectHooks(readFileSync(paths.configPath, 'utf8'), ws);
    if (!revoked.ok) throw new Error('revoke');
    writeFileSync(paths.configPath, `${revoked.value}\n# touched\n`);
    expect(check(p!)).toBe(REVOKED_ERROR);
    expect(check(g!)).toBeNull();
  });

  it('revocation fails closed when the user config can no longer be parsed', () => {
    const { paths, ws } = setup(GLOBAL, PROJECT, '#!/bin/sh\n');
    const first = loadHookConfiguration({ paths, workspace: ws });
    if (!first.ok) throw new Error('load');
    approve(paths, ws, first.value.loaded.project!.digest!);
    const r = loadHookConfiguration({ paths, workspace: ws });
    if (!r.ok) throw new Error('load');
    const check = projectRevocationCheck(r.value);
    const project = r.value.loaded.set.hooks.find((h) => h.source === 'project')!;
    expect(check(project)).toBeNull();
    writeFileSync(paths.configPath, '[projects\n');
    expect(check(project)).toBe(REVOKED_ERROR);
  });
});
