import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedCapture } from './bounded-capture.js';
import { runHook } from './run-hook.js';
import { setSpawnMode, sharedProcessHost } from './process-host.js';
import { baseEnv, identity } from '../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cw-host-capture-'));
afterAll(() => setSpawnMode(null));

/** Byte strings rich in multi-byte UTF-8 and invalid sequences, so the cap lands inside characters. */
const bytes = fc
  .array(fc.oneof(fc.constantFrom('a', 'é', '鲸', '🐳', '\n').map((c) => new TextEncoder().encode(c)), fc.uint8Array({ minLength: 1, maxLength: 3 })), { maxLength: 60 })
  .map((parts) => Buffer.concat(parts));

describe('the process host captures exactly like the in-process path', () => {
  it('gives the same stdout, stderr and truncation flags as BoundedCapture for any bytes and any cap', async () => {
    let n = 0;
    setSpawnMode('host');
    await sharedProcessHost().start();
    await fc.assert(
      fc.asyncProperty(bytes, bytes, fc.integer({ min: 0, max: 80 }), async (out, err, cap) => {
        const o = join(dir, `out-${n}`);
        const e = join(dir, `err-${n++}`);
        writeFileSync(o, out);
        writeFileSync(e, err);
        const spec = { hook: identity(), command: `cat '${o}'; cat '${e}' >&2`, cwd: dir, env: baseEnv(), stdin: null, timeoutSecs: 10, stdoutMaxBytes: cap, stderrMaxBytes: cap };
        const expected = (b: Buffer) => {
          const c = new BoundedCapture(cap);
          c.push(b);
          return { text: c.text(), truncated: c.truncated };
        };
        const results = [];
        for (const mode of ['host', 'in-process'] as const) {
          setSpawnMode(mode);
          const r = await runHook(spec);
          results.push({ stdout: r.stdout, stderr: r.stderr, stdoutTruncated: r.stdoutTruncated, stderrTruncated: r.stderrTruncated, exitCode: r.exitCode });
        }
        const want = { stdout: expected(out).text, stderr: expected(err).text, stdoutTruncated: expected(out).truncated, stderrTruncated: expected(err).truncated, exitCode: 0 };
        expect(results[0]).toEqual(want);
        expect(results[1]).toEqual(want);
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
