import { describe, expect, it } from 'vitest';
import { approveProjectHooks, revokeProjectHooks, setWorkspaceTrust } from './approve-project-hooks.js';
import { projectApproval } from './project-approval.js';
import { readProjectRecord } from './project-record.js';
import { userConfig } from './test-fixtures.js';
import { sha256Hex, utf8 } from './test-sha256.js';

const WS = '/w/p';
const FILE = utf8('[[hooks]]\nevent = "tool_call_before"\ncommand = "sh ./scripts/gate.sh && ./.codewhale/hooks/missing.py"\n');
const DIGEST = sha256Hex(FILE);
const SCRIPT = sha256Hex(utf8('echo ok'));
const SCRIPTS = new Map<string, string | null>([['scripts/gate.sh', SCRIPT]]);
const CONFIG = `# my config\nmodel = "deepseek-chat"\n\n[projects."${WS}"] # trusted by me\ntrust_level = "trusted"\n`;

const approve = (digest: string, configText = CONFIG, projectFile: Uint8Array | null = FILE) =>
  approveProjectHooks({ configText, workspace: WS, projectFile, sha256: sha256Hex, digest, scriptDigests: SCRIPTS });
const state = (configText: string, file: Uint8Array | null = FILE, scripts = SCRIPTS) =>
  projectApproval({ record: readProjectRecord(userConfig(configText).document, WS), projectFile: file, sha256: sha256Hex, scriptDigests: scripts }).state;

describe('approveProjectHooks', () => {
  it('records the digest and pins the named scripts, keeping everything else', () => {
    const r = approve(DIGEST.slice(0, 12).toUpperCase());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.digest).toBe(DIGEST);
    expect(r.value.scripts).toEqual({ '.codewhale/hooks/missing.py': 'absent', 'scripts/gate.sh': SCRIPT });
    expect(r.value.configText).toBe(`${CONFIG}hooks_approved_sha256 = "${DIGEST}"\nhooks_approved_scripts = { ".codewhale/hooks/missing.py" = "absent", "scripts/gate.sh" = "${SCRIPT}" }\n`);
    expect(state(r.value.configText)).toBe('approved');
  });

  it('is idempotent', () => {
    const once = approve(DIGEST);
    const twice = once.ok ? approve(DIGEST, once.value.configText) : once;
    expect(twice.ok && once.ok && twice.value.configText === once.value.configText).toBe(true);
  });

  it('refuses a digest that does not match the file as it is now', () => {
    const r = approve(sha256Hex(utf8('other bytes')));
    expect(r.ok ? null : r.issues[0]!.code).toBe('digest_mismatch');
  });

  it('refuses a prefix under 12 characters and a missing file', () => {
    expect(approve(DIGEST.slice(0, 11)).ok).toBe(false);
    const r = approve(DIGEST, CONFIG, null);
    expect(r.ok ? null : r.issues[0]!.code).toBe('no_project_file');
  });

  it('approval alone does not grant trust', () => {
    const r = approve(DIGEST, 'model = "m"\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const record = readProjectRecord(userConfig(r.value.configText).document, WS);
    expect(record.trusted).toBe(false);
    expect(projectApproval({ record, projectFile: FILE, sha256: sha256Hex, scriptDigests: SCRIPTS })).toMatchObject({ state: 'approved', loadable: false });
  });

  it('a later change to a pinned script makes the state changed', () => {
    const r = approve(DIGEST);
    if (!r.ok) throw new Error('approve failed');
    expect(state(r.value.configText, FILE, new Map([['scripts/gate.sh', sha256Hex(utf8('rm -rf ~'))]]))).toBe('changed');
    expect(state(r.value.configText, FILE, new Map([...SCRIPTS, ['.codewhale/hooks/missing.py', SCRIPT]]))).toBe('changed');
  });
});

describe('revokeProjectHooks and re-approval', () => {
  it('revoke removes the approval and marks it revoked; a new approval clears the mark', () => {
    const approved = approve(DIGEST);
    if (!approved.ok) throw new Error('approve failed');
    const revoked = revokeProjectHooks(approved.value.configText, WS);
    expect(revoked.ok).toBe(true);
    if (!revoked.ok) return;
    expect(revoked.value).toBe(`${CONFIG}hooks_revoked = true\n`);
    expect(state(revoked.value)).toBe('revoked');
    const again = approve(DIGEST, revoked.value);
    expect(again.ok && state(again.value.configText)).toBe('approved');
    expect(again.ok && again.value.configText.includes('hooks_revoked')).toBe(false);
  });
});

describe('setWorkspaceTrust', () => {
  it('sets and removes trust_level only', () => {
    const on = setWorkspaceTrust('a = 1 # x\n', WS, true);
    expect(on).toEqual({ ok: true, value: `a = 1 # x\n\n[projects."${WS}"]\ntrust_level = "trusted"\n` });
    const off = on.ok ? setWorkspaceTrust(on.value, WS, false) : on;
    expect(off).toEqual({ ok: true, value: `a = 1 # x\n\n[projects."${WS}"]\n` });
  });
});
