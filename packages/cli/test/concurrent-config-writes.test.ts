/**
 * Concurrent writers of the user's config.toml: 20 `codewhale` processes at once — trust,
 * untrust, hooks approve, hooks revoke, each in its own workspace — against one config. Every
 * change must land, the file must still parse, and every comment must survive.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseUserConfig, readProjectRecord } from '@codewhale/hooks-config';
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

type Kind = 'trust' | 'untrust' | 'approve' | 'revoke';
const KINDS: readonly Kind[] = ['trust', 'approve', 'untrust', 'revoke'];

describe('concurrent config writers', { timeout: 180_000 }, () => {
  it('20 processes of mixed kinds: every change landed, the file parses, comments intact', async () => {
    const sb = sandbox();
    const hooks = '[[hooks]]\nname = "p"\nevent = "turn_end"\ncommand = "true"\n';
    const digest = createHash('sha256').update(hooks).digest('hex');
    const jobs = Array.from({ length: 20 }, (_, i) => {
      const ws = join(sb.dir, `ws${i}`);
      mkdirSync(join(ws, '.codewhale'), { recursive: true });
      writeFileSync(join(ws, '.codewhale', 'hooks.toml'), hooks);
      return { ws, kind: KINDS[i % KINDS.length]! };
    });
    // Seed: the untrust workspaces are trusted, the revoke workspaces approved; comments everywhere.
    const comments = ['# my Codewhale config — keep this comment', '# a comment between tables', '# the last comment'];
    let seed = `${comments[0]}\nmodel = "deepseek-chat"  # inline comment\n\n`;
    for (const { ws, kind } of jobs) {
      if (kind === 'untrust') seed += `[projects."${ws}"]\ntrust_level = "trusted"  # seeded trust\n\n`;
      if (kind === 'revoke') seed += `[projects."${ws}"]\nhooks_approved_sha256 = "${digest}"\n\n`;
    }
    seed += `${comments[1]}\n[hooks]\nenabled = true\n${comments[2]}\n`;
    sb.config(seed);

    const args = (kind: Kind): string[] => (kind === 'trust' ? ['trust'] : kind === 'untrust' ? ['untrust'] : kind === 'approve' ? ['hooks', 'approve', digest] : ['hooks', 'revoke']);
    const results = await Promise.all(jobs.map(({ ws, kind }) => sb.run(args(kind), { cwd: ws, timeoutMs: 120_000 })));
    for (const [i, r] of results.entries()) expect(r.code, `${jobs[i]!.kind} ${i}: ${r.stderr}`).toBe(0);

    const text = readFileSync(join(sb.home, 'config.toml'), 'utf8');
    for (const c of comments) expect(text).toContain(c);
    expect(text).toContain('model = "deepseek-chat"  # inline comment');
    const parsed = parseUserConfig(text, 'config.toml');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    for (const { ws, kind } of jobs) {
      const rec = readProjectRecord(parsed.value.document, ws);
      if (kind === 'trust') expect(rec.trusted, `${ws} trusted`).toBe(true);
      if (kind === 'untrust') expect(rec.trusted, `${ws} untrusted`).toBe(false);
      if (kind === 'approve') expect(rec.approvedSha256, `${ws} approved`).toBe(digest);
      if (kind === 'revoke') {
        expect(rec.revoked, `${ws} revoked`).toBe(true);
        expect(rec.approvedSha256).toBeNull();
      }
    }
    // no lock file or temporary file left behind
    expect(readdirSync(sb.home).filter((f) => f !== 'config.toml' && f !== 'audit.log')).toEqual([]);
  });
});
