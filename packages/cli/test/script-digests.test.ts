/**
 * Script pins (D13) have one hashing implementation: what `hooks review` shows, what
 * `hooks approve` records and what the loader checks are the same digests, byte for byte —
 * and each is the SHA-256 of the script's exact bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHookConfiguration, resolvePaths, scriptDigests } from '@codewhale/hooks-supervisor';
import { parseUserConfig, readProjectRecord } from '@codewhale/hooks-config';
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

const sha = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

describe('script digests', { timeout: 30_000 }, () => {
  it('hooks review, hooks approve and the loader agree byte for byte', async () => {
    const sb = sandbox();
    sb.config('# mine\n');
    // Bytes that a text round trip would change: CRLF, a BOM, invalid UTF-8, no final newline.
    const gate = sb.script('.codewhale/hooks/gate.sh', 'exit 0\r\n', true);
    writeFileSync(gate, Buffer.concat([Buffer.from('\uFEFF#!/bin/sh\r\nexit 0\r\n'), Buffer.from([0xff, 0xfe])]));
    sb.script('.codewhale/hooks/real.sh', 'exit 0', true);
    symlinkSync(join(sb.ws, '.codewhale/hooks/real.sh'), join(sb.ws, '.codewhale/hooks/link.sh'));
    const outside = sb.script('outside.sh', 'exit 0');
    symlinkSync(outside, join(sb.ws, '.codewhale/hooks/escape.sh'));
    sb.projectHooks(
      [
        '[[hooks]]',
        'event = "tool_call_before"',
        'command = "./.codewhale/hooks/gate.sh && ./.codewhale/hooks/link.sh"',
        '[[hooks]]',
        'event = "turn_end"',
        'command = "./.codewhale/hooks/escape.sh; ./.codewhale/hooks/missing.sh"',
        '',
      ].join('\n'),
    );
    const expected = new Map<string, string | null>([
      ['.codewhale/hooks/escape.sh', null],
      ['.codewhale/hooks/gate.sh', sha(readFileSync(gate))],
      ['.codewhale/hooks/link.sh', sha(readFileSync(join(sb.ws, '.codewhale/hooks/real.sh')))],
      ['.codewhale/hooks/missing.sh', null],
    ]);

    // The loader's hashing.
    expect(scriptDigests(sb.ws, [...expected.keys()])).toEqual(expected);

    // What review shows.
    const review = await sb.run(['hooks', 'review']);
    expect(review.code).toBe(0);
    for (const [path, digest] of expected) {
      expect(review.stdout).toMatch(new RegExp(`- ${path.replace(/\./g, '\\.')}  ${digest ?? '\\(?(absent|missing|not found)'}`));
    }
    const fileDigest = sha(readFileSync(join(sb.ws, '.codewhale/hooks.toml')));

    // What approve records.
    expect((await sb.run(['trust'])).code).toBe(0);
    const approve = await sb.run(['hooks', 'approve', fileDigest]);
    expect(approve.code).toBe(0);
    const config = parseUserConfig(readFileSync(join(sb.home, 'config.toml'), 'utf8'));
    if (!config.ok) throw new Error('config.toml does not parse');
    const record = readProjectRecord(config.value.document, sb.ws);
    expect(record.approvedSha256).toBe(fileDigest);
    expect(new Map([...record.approvedScripts].map(([k, v]) => [k, v === 'absent' ? null : v]))).toEqual(expected);

    // The loader accepts exactly those pins.
    const loaded = loadHookConfiguration({ paths: resolvePaths({ CODEWHALE_HOME: sb.home }), workspace: sb.ws });
    if (!loaded.ok) throw new Error('loader failed');
    expect(loaded.value.loaded.project).toMatchObject({ state: 'approved', changedScripts: [], loadable: true });

    // One changed byte in a pinned script, and the loader refuses the project hooks.
    writeFileSync(join(sb.ws, '.codewhale/hooks/real.sh'), 'exit 1');
    const after = loadHookConfiguration({ paths: resolvePaths({ CODEWHALE_HOME: sb.home }), workspace: sb.ws });
    if (!after.ok) throw new Error('loader failed');
    expect(after.value.loaded.project).toMatchObject({ state: 'changed', changedScripts: ['.codewhale/hooks/link.sh'], loadable: false });
  });
});
