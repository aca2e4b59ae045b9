/**
 * The README's "run it" command: `pnpm demo` (after the build `pnpm test` does) must show hooks
 * steering a real session, offline.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

describe('the offline demo', () => {
  it('denies, rewrites, adds context, injects a token, hides the ambient secret, and records every decision', () => {
    expect(existsSync(join(root, 'packages/cli/dist/bin.cjs')), 'build first (pnpm test builds)').toBe(true);
    const r = spawnSync(process.execPath, [join(root, 'scripts/demo.mjs')], { cwd: root, encoding: 'utf8', env: { ...process.env, DEEPSEEK_API_KEY: '' }, timeout: 120_000 });
    const out = r.stdout + r.stderr;
    expect(r.status, out).toBe(0);
    expect(out).toContain('status: pending approval');
    expect(out).toMatch(/approved project hooks of .*4 scripts pinned/);
    expect(out).toContain("tool bash denied: ToolCallBefore hook denied tool 'bash': destructive commands are blocked by the demo policy");
    expect(out).toContain('hooks: allow (input rewritten) (+context) [deny-destructive=no_decision, dry-run-deploys=allow]');
    expect(out).toContain('deploy (DRY RUN) to production');
    expect(out).toContain('DEPLOY_TOKEN: present');
    expect(out).toContain('AWS_SECRET_ACCESS_KEY: not visible');
    expect(out).toContain('hooks: allow (+context) [release-policy=no_decision]');
    // Step 6: one decision record per tool call.
    expect([...out.matchAll(/^(read|bash) +(allow|deny) /gm)].map((m) => `${m[1]} ${m[2]}`)).toEqual(['read allow', 'bash deny', 'bash allow']);
    // Step 7: key names, never values.
    expect(out).toMatch(/"event":"shell_env_hook".*"keys":\["DEPLOY_TOKEN","DEPLOY_TOKEN_EXPIRES"\]/);
    expect(out).not.toMatch(/DEPLOY_TOKEN=demo-/);
    // Step 8: the same session in the interactive UI (tmux is installed by .ci/run).
    expect(out).toMatch(/hook deny-destructive \(tool_call_before\) denied/);
    // The rewrite is said once, by the hook's own line; the call's result does not repeat it.
    expect(out).toMatch(/hook dry-run-deploys \(tool_call_before\) rewrote the input/);
    expect(out).toMatch(/✓ #3 bash \(\d+ ms\)/);
    expect(out).toMatch(/✓ turn completed · 3 tools used/);
  }, 120_000);
});
