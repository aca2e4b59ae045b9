/**
 * `hooks test` text output details (the built binary).
 */
import { describe, expect, it } from 'vitest';
import { sandbox } from './run-cli.js';

describe.concurrent('hooks test text output', { timeout: 30_000 }, () => {
  it('an oversized-output row says "no verdict" once', async () => {
    const sb = sandbox();
    const big = sb.script('big.sh', `head -c 70000 /dev/zero | tr '\\0' 'x'`);
    sb.config(`[hooks]\n[[hooks.hooks]]\nname = "big"\nevent = "tool_call_before"\ncommand = "${big}"\ncontinue_on_error = false\n`);
    const r = await sb.run(['hooks', 'test', 'tool_call_before', '--tool', 'bash', '--input', '{"command":"ls"}']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ - big \(config\.toml:\d+\) \[strict\]: no verdict — output exceeded 64 KiB \(strict: the call is denied\)/);
    expect(r.stdout).not.toContain('no verdict \u2014 no verdict');
  });
});
