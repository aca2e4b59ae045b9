import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldToolCallBefore } from './tool-call-before.js';
import { redactSecrets } from './redact-secrets.js';
import { outcomeOf } from './test-outcome.js';

const SECRETS = ['sk-live-4f9a8b7c6d5e4f3a2b1c', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'AKIAIOSFODNN7EXAMPLE', 'xoxb-123456789012-abcdefghijkl'];

const gate = (stdout: string) => outcomeOf('tool_call_before', 'rewrite', { stdout });

describe('redactSecrets', () => {
  it('keeps text without secrets byte for byte, paths and commands included', () => {
    for (const t of ['{"command":"ls -la /home/alice/project"}', 'the key idea', '{"path":"src/password-reset.ts"}']) expect(redactSecrets(t)).toBe(t);
  });

  it('replaces token shapes and credential assignments, in JSON too', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRETS),
        fc.constantFrom('TOKEN=%s', 'export API_KEY=%s', 'curl -H "Authorization: Bearer %s"', 'password: %s'),
        fc.string({ maxLength: 20 }),
        (secret, shape, noise) => {
          const json = JSON.stringify({ command: `${noise.replace(/\s/g, '')} ${shape.replace('%s', secret)}` });
          expect(redactSecrets(json)).not.toContain(secret);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('decision records never carry a secret in the original or the rewritten input preview', () => {
    const secret = SECRETS[0]!;
    const record = foldToolCallBefore({
      tool: 'bash',
      originalInput: { command: `deploy --token=${secret}` },
      outcomes: [gate(JSON.stringify({ updatedInput: { command: `DEPLOY_TOKEN=${secret} ./deploy.sh` } }))],
    });
    expect(record.input.original).not.toContain(secret);
    expect(record.input.rewritten).not.toBeNull();
    expect(record.input.rewritten).not.toContain(secret);
    // The rewrite itself (what runs) is untouched: only previews are redacted.
    expect(record.updatedInput).toEqual({ command: `DEPLOY_TOKEN=${secret} ./deploy.sh` });
  });
});
