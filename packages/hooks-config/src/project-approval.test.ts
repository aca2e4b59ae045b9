import { describe, expect, it } from 'vitest';
import { projectApproval, projectScriptPaths, scriptPathsToCheck } from './project-approval.js';
import { readProjectRecord } from './project-record.js';
import { userConfig } from './test-fixtures.js';
import { sha256Hex, utf8 } from './test-sha256.js';

const FILE = utf8('[[hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "./.codewhale/hooks/gate.sh"\n');
const DIGEST = sha256Hex(FILE);
const SCRIPT = sha256Hex(utf8('#!/bin/sh\nexit 0\n'));
const WS = '/w/p';

const verdict = (config: string, file: Uint8Array | null = FILE, scripts: Record<string, string | null> = { '.codewhale/hooks/gate.sh': SCRIPT }) =>
  projectApproval({
    record: readProjectRecord(userConfig(config).document, WS),
    projectFile: file,
    sha256: sha256Hex,
    scriptDigests: new Map(Object.entries(scripts)),
  });

const approved = (extra = '') => `[projects."${WS}"]\ntrust_level = "trusted"\nhooks_approved_sha256 = "${DIGEST}"\nhooks_approved_scripts = { ".codewhale/hooks/gate.sh" = "${SCRIPT}" }\n${extra}`;

describe('projectApproval (D11–D14)', () => {
  it('none: no project file', () => {
    expect(verdict(approved(), null)).toMatchObject({ state: 'none', digest: null, loadable: false });
  });

  it('pending: a file that was never approved', () => {
    expect(verdict(`[projects."${WS}"]\ntrust_level = "trusted"\n`)).toMatchObject({ state: 'pending', digest: DIGEST, trusted: true, loadable: false });
  });

  it('approved: trusted, exact bytes and pinned scripts match', () => {
    expect(verdict(approved())).toMatchObject({ state: 'approved', trusted: true, loadable: true, changedScripts: [], scripts: ['.codewhale/hooks/gate.sh'] });
  });

  it('approved but untrusted does not load (trust and approval are both required)', () => {
    const v = verdict(approved().replace('trust_level = "trusted"\n', ''));
    expect(v).toMatchObject({ state: 'approved', trusted: false, loadable: false });
  });

  it('changed: one byte of the file differs from the approval', () => {
    const edited = utf8('[[hooks]]\nname = "gate"\nevent = "tool_call_before"\ncommand = "./.codewhale/hooks/gate.sh" \n');
    expect(verdict(approved(), edited)).toMatchObject({ state: 'changed', loadable: false, approvedDigest: DIGEST });
  });

  it('changed: a pinned script changed, or went missing', () => {
    expect(verdict(approved(), FILE, { '.codewhale/hooks/gate.sh': sha256Hex(utf8('evil')) })).toMatchObject({
      state: 'changed',
      changedScripts: ['.codewhale/hooks/gate.sh'],
    });
    expect(verdict(approved(), FILE, { '.codewhale/hooks/gate.sh': null }).state).toBe('changed');
    expect(verdict(approved(), FILE, {}).state).toBe('changed');
  });

  it('a script pinned as absent must still be absent', () => {
    const cfg = approved().replace(`"${SCRIPT}" }`, '"absent" }');
    expect(verdict(cfg, FILE, { '.codewhale/hooks/gate.sh': null }).state).toBe('approved');
    expect(verdict(cfg, FILE, { '.codewhale/hooks/gate.sh': SCRIPT }).state).toBe('changed');
  });

  it('a named script without a pin is a change', () => {
    const cfg = `[projects."${WS}"]\ntrust_level = "trusted"\nhooks_approved_sha256 = "${DIGEST}"\n`;
    expect(verdict(cfg)).toMatchObject({ state: 'changed', changedScripts: ['.codewhale/hooks/gate.sh'] });
  });

  it('revoked wins over a recorded approval', () => {
    expect(verdict(approved('hooks_revoked = true\n'))).toMatchObject({ state: 'revoked', loadable: false });
  });

  it('a malformed approval never counts', () => {
    expect(verdict(`[projects."${WS}"]\ntrust_level = "trusted"\nhooks_approved_sha256 = "nope"\n`).state).toBe('changed');
  });

  it('lists the scripts to hash: named now plus pinned', () => {
    const record = readProjectRecord(userConfig(approved().replace('" }', '", "old.sh" = "absent" }')).document, WS);
    expect(scriptPathsToCheck(record, FILE)).toEqual(['.codewhale/hooks/gate.sh', 'old.sh']);
    expect(projectScriptPaths(utf8('not toml ['))).toEqual([]);
  });
});
