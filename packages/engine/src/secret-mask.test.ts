import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineHooks } from './engine-hooks.js';
import type { EngineEvent } from './events.js';
import { ReplayProvider } from './provider/replay-provider.js';
import { parseReplayScript } from './provider/replay-script.js';
import { MASK, MASK_MIN_CHARS, SecretMask } from '@codewhale/hooks';
import { AgentSession } from './session.js';

const ws = () => realpathSync(mkdtempSync(join(tmpdir(), 'cw-mask-')));
const replay = (...lines: object[]) => new ReplayProvider(parseReplayScript(lines.map((l) => JSON.stringify(l)).join('\n'), 'test.jsonl'));

/** Hooks whose only job is a `shell_env` that hands the command `vars`. */
function shellEnvHooks(vars: Record<string, string>): EngineHooks {
  return {
    sessionId: 'sess_mask',
    toolCallBefore: async () => ({ decision: 'allow' }) as never,
    shellEnv: async () => ({ vars: new Map(Object.entries(vars)) }),
    has: (event) => event === 'shell_env',
  };
}

describe('shell_env values are masked in every tool output', () => {
  it('a command that prints the value, and a later one that reads it back from a file: the model, the history and the events see ***', async () => {
    const secret = 'hook-secret-value-8f3a';
    const provider = replay(
      { tool_calls: [{ id: 'a', name: 'bash', arguments: { command: 'echo "got $HOOK_TOKEN"; echo "$HOOK_TOKEN" > kept.txt' } }] },
      { tool_calls: [{ id: 'b', name: 'read_file', arguments: { path: 'kept.txt' } }] },
      { text: 'ok' },
    );
    const events: EngineEvent[] = [];
    const s = new AgentSession({ provider, workspace: ws(), posture: 'full_access', hooks: shellEnvHooks({ HOOK_TOKEN: secret, SHORT: 'abc' }) });
    s.on((e) => events.push(e));
    expect((await s.runTurn('go')).status).toBe('completed');
    const sent = JSON.stringify(provider.requests);
    expect(sent).toContain(`got ${MASK}`);
    expect(sent).not.toContain(secret);
    expect(JSON.stringify(s.history)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
    // The file the command wrote really holds the value: only what leaves the tool is masked.
    expect(JSON.stringify(events)).toContain(MASK);
  });

  it('SecretMask: no remembered value survives; text without one is unchanged; longer values win', () => {
    // Values and text without '*': the mask cannot spell a value, so none may be left.
    const chars = fc.constantFrom(...'abcdxyz01 -_'.split(''));
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: chars, minLength: MASK_MIN_CHARS, maxLength: 10 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.string({ unit: chars, maxLength: 8 }), { maxLength: 6 }),
        (values, filler) => {
          const m = new SecretMask();
          m.add(values);
          const text = filler.map((f, i) => `${f}${values[i % values.length]}`).join('|') + values.join('/');
          const out = m.mask(text);
          for (const v of values) expect(out).not.toContain(v);
          expect(m.mask(filler.filter((f) => !values.some((v) => f.includes(v))).join('|'))).toBe(filler.filter((f) => !values.some((v) => f.includes(v))).join('|'));
        },
      ),
    );
    const m = new SecretMask();
    m.add(['abcd', 'abcdefgh', 'xyz']);
    expect(m.size).toBe(2);
    expect(m.mask('1 abcdefgh 2 abcd 3 xyz')).toBe(`1 ${MASK} 2 ${MASK} 3 xyz`);
    expect(m.mask('nothing here')).toBe('nothing here');
  });
});
