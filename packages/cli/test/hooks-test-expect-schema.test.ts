/**
 * `hooks test … --expect allow` must agree with a real session: a rewrite the tool's schema
 * rejects is blocked by the engine, so expecting `allow` fails (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

describe('hooks test --expect with a schema-rejected rewrite', { timeout: 30_000 }, () => {
  it('--expect allow fails for a rewrite the tool does not accept', async () => {
    const sb = sandbox();
    const bad = sb.script('bad.sh', `echo '{"decision":"allow","updatedInput":{"cmd":"ls"}}'`);
    sb.config(`[hooks]\n[[hooks.hooks]]\nname = "bad-rewrite"\nevent = "tool_call_before"\ncommand = "${bad}"\n`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}', '--expect', 'allow']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toMatch(/expectation failed: expected `allow`, got `(deny|blocked)`/);
  });
});
