import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { genericDetail, NO_VERDICT_DETAIL, OVERSIZED_OUTPUT_DETAIL } from './generic-detail.js';

describe('genericDetail (reference §10.2.8): an allowlist, not a pass-through', () => {
  it.each([
    ['Hook timed out after 30s', 'hook timed out after 30s'],
    ['Hook timed out after 30s; partial output /tmp/x --token=abc', 'hook timed out after 30s'],
    ['Hook timed out after 1s', 'hook timed out after 1s'],
    ['Hook timed out after', 'hook timed out'],
    ['Hook timed out after soon /etc/passwd', 'hook timed out'],
    ['hook process could not be started (NotFound)', 'hook process could not be started (NotFound)'],
    ['hook process could not be started (NotFound) /usr/bin/x', 'hook process could not be started (NotFound)'],
    ['hook process could not be started (PermissionDenied): /home/me/.hooks/gate.sh', 'hook process could not be started (PermissionDenied)'],
    ['hook process could not be started (Not_Found-9)', 'hook process could not be started (NotFound)'],
    ['failed to contain hook process tree: access denied C:\\x', 'hook process could not be contained'],
    ['failed to resume contained hook process 1234', 'hook process could not be contained'],
    ['hook executor did not run', 'hook executor did not run'],
    ['Failed to submit background hook: /x', 'hook could not be submitted'],
    ['background hook supervisor could not be started: boom', 'hook could not be submitted'],
    ['background hook supervisor queue is full', 'hook could not be submitted'],
    ['background hook supervisor is unavailable', 'hook could not be submitted'],
    ['Failed to wait for hook: /proc/1', 'hook did not complete cleanly'],
    ['hook could not be reaped after its timeout', 'hook did not complete cleanly'],
    ['Failed to encode hook stdin: {"secret":1}', 'hook did not complete cleanly'],
    ['hook stdout reader could not be started', 'hook did not complete cleanly'],
    ['hook stderr reader could not be started', 'hook did not complete cleanly'],
    ['hook stdin writer could not be started', 'hook did not complete cleanly'],
    ['background hook process could not be started (NotFound)', 'hook did not complete cleanly'],
    ['background hook stdin writer failed', 'hook did not complete cleanly'],
    ['background hook setup failed: /x', 'hook did not complete cleanly'],
    ['no verdict: output exceeded 64 KiB', OVERSIZED_OUTPUT_DETAIL],
  ])('%s → %s', (error, detail) => {
    expect(genericDetail(error)).toBe(detail);
  });

  it('collapses a missing error and anything unrecognised to `hook returned no verdict`', () => {
    expect(genericDetail(null)).toBe(NO_VERDICT_DETAIL);
    expect(genericDetail(undefined)).toBe(NO_VERDICT_DETAIL);
    expect(genericDetail('')).toBe(NO_VERDICT_DETAIL);
    expect(genericDetail('spawn failed: /Users/x/.aws/credentials --token=SECRET')).toBe('hook returned no verdict');
    expect(genericDetail('sh: 1: gate: not found')).toBe('hook returned no verdict');
  });

  it('does not accept a smuggled prefix or a smuggled executor text', () => {
    expect(genericDetail('/tmp/evil Hook timed out after 3s')).toBe(NO_VERDICT_DETAIL);
    expect(genericDetail('hook executor did not run /Users/alice/secret')).toBe(NO_VERDICT_DETAIL);
    expect(genericDetail('x hook process could not be started (NotFound)')).toBe(NO_VERDICT_DETAIL);
  });

  it('keeps only digits of a timeout and only letters of an error kind', () => {
    expect(genericDetail('Hook timed out after 12345s')).toBe('hook timed out after 12345s');
    expect(genericDetail('hook process could not be started (/etc/x)')).toBe('hook process could not be started (etcx)');
  });

  it('the fixed texts', () => {
    expect(NO_VERDICT_DETAIL).toBe('hook returned no verdict');
    expect(OVERSIZED_OUTPUT_DETAIL).toBe('no verdict: output exceeded 64 KiB');
  });
});

describe('properties', () => {
  it('never echoes a path, a flag or a token from an arbitrary error', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{6,12}$/);
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), secret, (prefix, token) => {
        const d = genericDetail(`${prefix} /home/u/${token} --token=${token}`);
        expect(d).not.toContain('/');
        expect(d).not.toContain('--token');
      }),
      { numRuns: 200 },
    );
  });

  it('is always one of a small set of shapes', () => {
    const shapes =
      /^(hook returned no verdict|hook timed out( after \d+s)?|hook process could not be started( \([A-Za-z]+\))?|hook process could not be contained|hook executor did not run|hook could not be submitted|hook did not complete cleanly|hook approval was revoked|no verdict: output exceeded 64 KiB)$/;
    const error = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('Hook timed out after ', 'hook process could not be started (', 'Failed to wait for hook', 'background hook setup').chain((p) => fc.string({ maxLength: 30 }).map((s) => p + s)),
    );
    fc.assert(
      fc.property(error, (e) => shapes.test(genericDetail(e))),
      { numRuns: 300 },
    );
  });
});

describe('output left open by an escaped child', () => {
  it('has its own fixed detail, and a smuggled tail is dropped', () => {
    expect(genericDetail('hook output stayed open after the hook exited')).toBe('hook output stayed open after the hook exited');
    expect(genericDetail('hook output stayed open after the hook exited /home/me/.ssh/id_rsa')).toBe('hook output stayed open after the hook exited');
  });
});
