import { describe, it, expect } from 'vitest';
import { observedExitCode, outcomeDetail, backgroundOutcome, notRunOutcome, type HookIdentity, type HookOutcome } from './outcome.js';

const gate: HookIdentity = { index: 0, name: 'gate', label: 'gate', event: 'tool_call_before', source: 'global', continueOnError: false, background: false };

function outcome(over: Partial<HookOutcome> = {}): HookOutcome {
  return {
    hook: gate,
    background: false,
    strict: true,
    success: true,
    exitCode: 0,
    signal: null,
    durationMs: 3,
    timedOut: false,
    spawnError: null,
    error: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    ...over,
  };
}

describe('observedExitCode', () => {
  it('is the exit code of a foreground run and null for a background one', () => {
    expect(observedExitCode(outcome({ exitCode: 2 }))).toBe(2);
    expect(observedExitCode(outcome({ exitCode: 0 }))).toBe(0);
    expect(observedExitCode(outcome({ exitCode: null }))).toBeNull();
    // even a background record that (wrongly) carries a code has no observed exit code
    expect(observedExitCode(outcome({ background: true, exitCode: 2 }))).toBeNull();
  });
});

describe('outcomeDetail', () => {
  it('renders the runner error through the generic allowlist', () => {
    expect(outcomeDetail(outcome({ exitCode: null, timedOut: true, error: 'Hook timed out after 1s' }))).toBe('hook timed out after 1s');
    expect(outcomeDetail(outcome({ exitCode: null, spawnError: 'NotFound', error: 'hook process could not be started (NotFound) /bin/gate' }))).toBe('hook process could not be started (NotFound)');
    expect(outcomeDetail(outcome({ exitCode: null, error: 'weird /Users/me/secret' }))).toBe('hook returned no verdict');
  });

  it('names oversized output (D16) and termination by a signal', () => {
    expect(outcomeDetail(outcome({ stdoutTruncated: true }))).toBe('no verdict: output exceeded 64 KiB');
    expect(outcomeDetail(outcome({ exitCode: null, signal: 'SIGKILL' }))).toBe('hook was terminated by SIGKILL');
    expect(outcomeDetail(outcome({ exitCode: null, signal: 'sig/../x' }))).toBe('hook was terminated by a signal');
  });

  it('falls back to `hook returned no verdict`', () => {
    expect(outcomeDetail(outcome({ exitCode: 1 }))).toBe('hook returned no verdict');
  });
});

describe('backgroundOutcome / notRunOutcome', () => {
  it('a background submission is never strict, has no exit code and no output', () => {
    const ok = backgroundOutcome({ ...gate, background: true }, true);
    expect(ok).toMatchObject({ background: true, strict: false, success: true, exitCode: null, stdout: '', stderr: '', error: null });
    const full = backgroundOutcome({ ...gate, background: true }, false, 'background hook supervisor queue is full');
    expect(full).toMatchObject({ success: false, error: 'background hook supervisor queue is full', strict: false });
    expect(outcomeDetail(full)).toBe('hook could not be submitted');
  });

  it('a hook that never ran keeps the strictness of its configuration', () => {
    expect(notRunOutcome(gate, 'hook executor did not run')).toMatchObject({ strict: true, exitCode: null, success: false, background: false });
    expect(notRunOutcome({ ...gate, continueOnError: true }, 'hook executor did not run').strict).toBe(false);
    expect(outcomeDetail(notRunOutcome(gate, 'hook executor did not run'))).toBe('hook executor did not run');
  });
});
