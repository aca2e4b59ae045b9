import { describe, expect, it } from 'vitest';
import { approveProjectHooks } from './approve-project-hooks.js';
import { loadHookSet } from './load-hook-set.js';
import { sha256Hex, utf8 } from './test-sha256.js';

const WS = '/w/p';
const GLOBAL = '[hooks]\n[[hooks.hooks]]\nname = "g"\nevent = "turn_end"\ncommand = "g"\n';
const PROJECT = utf8('[[hooks]]\nname = "p"\nevent = "turn_end"\ncommand = "p"\n');
const trusted = `${GLOBAL}\n[projects."${WS}"]\ntrust_level = "trusted"\n`;

const run = (configText: string, bytes: Uint8Array | null = PROJECT) =>
  loadHookSet({ userConfig: { text: configText, file: 'config.toml' }, project: { workspace: WS, bytes, file: '.codewhale/hooks.toml', sha256: sha256Hex } });
const approvedConfig = (bytes: Uint8Array, base = trusted): string => {
  const r = approveProjectHooks({ configText: base, workspace: WS, projectFile: bytes, sha256: sha256Hex, digest: sha256Hex(bytes) });
  if (!r.ok) throw new Error(r.issues[0]!.message);
  return r.value.configText;
};
const labels = (r: ReturnType<typeof run>) => (r.ok ? r.value.set.hooks.map((h) => h.label) : null);

describe('loadHookSet', () => {
  it('a TOML syntax error in the user config is the one hard error', () => {
    const r = run('[hooks\n');
    expect(r.ok ? null : r.issues[0]).toMatchObject({ code: 'toml_syntax', file: 'config.toml', line: 1 });
  });

  it('without a workspace: global hooks only, no project verdict', () => {
    const r = loadHookSet({ userConfig: { text: GLOBAL, file: 'config.toml' } });
    expect(r.ok && r.value.project).toBeNull();
    expect(r.ok && r.value.set.hooks.length).toBe(1);
  });

  it('project hooks load only when trusted and approved', () => {
    expect(labels(run(GLOBAL))).toEqual(['g']);
    expect(labels(run(trusted))).toEqual(['g']);
    expect(labels(run(approvedConfig(PROJECT, GLOBAL)))).toEqual(['g']);
    const both = run(approvedConfig(PROJECT));
    expect(labels(both)).toEqual(['g', 'p']);
    expect(both.ok && both.value.project).toMatchObject({ state: 'approved', loadable: true, digest: sha256Hex(PROJECT) });
  });

  it('a changed file is not loaded and reported as changed', () => {
    const cfg = approvedConfig(PROJECT);
    const r = run(cfg, utf8('[[hooks]]\nname = "p"\nevent = "turn_end"\ncommand = "evil"\n'));
    expect(labels(r)).toEqual(['g']);
    expect(r.ok && r.value.project?.state).toBe('changed');
  });

  it('a malformed approved project file falls back to global hooks with a warning', () => {
    const bad = utf8('[[hooks]\nevent = "turn_end"\n');
    const r = run(approvedConfig(bad), bad);
    expect(labels(r)).toEqual(['g']);
    expect(r.ok && r.value.set.problems.map((p) => [p.severity, p.code])).toEqual([['warning', 'toml_syntax']]);
  });

  it('no project file: state none', () => {
    const r = run(trusted, null);
    expect(r.ok && r.value.project?.state).toBe('none');
  });
});
