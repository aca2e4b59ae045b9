import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { buildExecutionReceipt, buildToolCallAfterDocument, receiptPreview, type ShellRunRecord } from './execution-receipt.js';
import { utf8ByteLength, isWellFormed } from './utf8.js';

const MARK = '[receipt preview truncated]';

function shellRun(over: Partial<ShellRunRecord> = {}): ShellRunRecord {
  return {
    toolName: 'Bash',
    command: 'printf hello',
    cwd: '/absolute/workspace',
    exitCode: 0,
    status: 'completed',
    stdout: 'hello',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    ...over,
  };
}

function parse(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

describe('buildExecutionReceipt (reference §13.1)', () => {
  it('is exactly the contract example', () => {
    expect(buildExecutionReceipt(shellRun())!.env).toBe(
      '{"schema_version":1,"command":"printf hello","cwd":"/absolute/workspace","state":"completed","scope":"local","exit_code":0,' +
        '"stdout":"hello","stderr":"","stdout_truncated":false,"stderr_truncated":false,"output_kind":"separate"}',
    );
  });

  it('state is completed for any observed exit, non-zero included; interrupted otherwise', () => {
    expect(parse(buildExecutionReceipt(shellRun({ exitCode: 1, status: 'failed' }))!.env).state).toBe('completed');
    expect(parse(buildExecutionReceipt(shellRun({ exitCode: 2, status: 'completed' }))!.env).state).toBe('completed');
    const timedOut = parse(buildExecutionReceipt(shellRun({ exitCode: null, status: 'timed_out' }))!.env);
    expect(timedOut).toMatchObject({ state: 'interrupted', exit_code: null });
    expect(parse(buildExecutionReceipt(shellRun({ exitCode: null, status: 'killed' }))!.env).state).toBe('interrupted');
  });

  it('never synthesizes an exit code, and keeps a 64-bit one exact', () => {
    expect(buildExecutionReceipt(shellRun({ exitCode: null, status: 'killed' }))!.exitCode).toBeNull();
    const crash = buildExecutionReceipt(shellRun({ exitCode: 3221225477, status: 'failed' }))!;
    expect(crash.exitCode).toBe(3221225477n);
    expect(crash.env).toContain('"exit_code":3221225477,');
    expect(buildExecutionReceipt(shellRun({ exitCode: 9223372036854775807n, status: 'failed' }))!.env).toContain('"exit_code":9223372036854775807,');
  });

  it('lowercase bash has combined output: stdout holds it all and stderr is empty', () => {
    const r = buildExecutionReceipt(shellRun({ toolName: 'bash', stdout: 'out+err', stderr: 'ignored', stderrTruncated: true }))!;
    expect(parse(r.env)).toMatchObject({ output_kind: 'combined', stdout: 'out+err', stderr: '', stderr_truncated: false });
    expect(buildExecutionReceipt(shellRun({ toolName: 'exec_shell', stderr: 'e' }))!.outputKind).toBe('separate');
    expect(parse(buildExecutionReceipt(shellRun({ toolName: 'exec_shell', stderr: 'e' }))!.env).stderr).toBe('e');
  });

  it('carries the capture truncation flags', () => {
    expect(parse(buildExecutionReceipt(shellRun({ stdoutTruncated: true, stderrTruncated: true }))!.env)).toMatchObject({
      stdout_truncated: true,
      stderr_truncated: true,
    });
  });

  it('is exact or absent: command and cwd are never cut', () => {
    expect(buildExecutionReceipt(shellRun({ command: 'x'.repeat(8_192) }))!.command).toHaveLength(8_192);
    expect(buildExecutionReceipt(shellRun({ command: 'x'.repeat(8_193) }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ command: '鲸'.repeat(2_731) }))).toBeNull(); // 8,193 bytes
    expect(buildExecutionReceipt(shellRun({ cwd: `/${'d'.repeat(8_192)}` }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ command: 'echo \u0000' }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ cwd: '/tmp/\u0000' }))).toBeNull();
  });

  it('has no receipt for a relative cwd, an unobserved end, a running job or a non-shell tool', () => {
    expect(buildExecutionReceipt(shellRun({ cwd: 'relative/dir' }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ cwd: './x' }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ cwd: '' }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ waitObserved: false }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ status: 'running', exitCode: null }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ toolName: 'read' }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ toolName: 'Run' }))).toBeNull();
    expect(buildExecutionReceipt(shellRun({ waitObserved: true }))).not.toBeNull();
    expect(buildExecutionReceipt(shellRun({ cwd: 'C:\\work' }))).not.toBeNull();
  });

  it('shrinks long previews around the marker until the JSON fits 32 KiB', () => {
    const stdout = `HEAD${'o'.repeat(100_000)}TAIL`;
    const stderr = `head${'e'.repeat(50_000)}tail`;
    const r = buildExecutionReceipt(shellRun({ stdout, stderr }))!;
    expect(utf8ByteLength(r.env)).toBeLessThanOrEqual(32_768);
    const p = parse(r.env);
    expect(p.stdout).toMatch(/^HEADo+\[receipt preview truncated\]o+TAIL$/);
    expect(p.stderr).toMatch(/^heade+\[receipt preview truncated\]e+tail$/);
    expect(p).toMatchObject({ stdout_truncated: true, stderr_truncated: true, command: 'printf hello' });
    expect(r.stdout).toBe(p.stdout);
  });

  it('is left out when even empty previews cannot fit', () => {
    // 8,000 control characters escape to 48,000 bytes of JSON.
    expect(buildExecutionReceipt(shellRun({ command: '\u0001'.repeat(8_000) }))).toBeNull();
  });
});

describe('receiptPreview', () => {
  it('keeps text that fits, else the first and last bytes around the marker', () => {
    expect(receiptPreview('short', 2)).toEqual({ text: 'short', cut: false });
    expect(receiptPreview('abcdefghij'.repeat(10), 3)).toEqual({ text: `abc${MARK}hij`, cut: true });
    expect(receiptPreview('鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸鲸', 4)).toEqual({ text: `鲸${MARK}鲸`, cut: true });
  });
});

describe('buildToolCallAfterDocument (reference §13.2)', () => {
  it('is exactly the contract example', () => {
    const receipt = buildExecutionReceipt(shellRun({ toolName: 'bash' }));
    expect(buildToolCallAfterDocument({ toolName: 'bash', sessionId: 'session-id', toolCallId: 'call-id', receipt })).toBe(
      '{"schema_version":1,"event":"tool_call_after","tool_name":"bash","session_id":"session-id","tool_call_id":"call-id",' +
        '"session_id_truncated":false,"tool_call_id_truncated":false,"tool_name_truncated":false,"execution_receipt":' +
        '{"schema_version":1,"command":"printf hello","cwd":"/absolute/workspace","command_truncated":false,"cwd_truncated":false,' +
        '"execution":"started","completion":"completed","exit_code":0,"stdout":"hello","stderr":"","stdout_truncated":false,' +
        '"stderr_truncated":false,"output_mode":"combined"}}',
    );
  });

  it.each([
    [0, 'completed', 'completed'],
    [1, 'completed', 'failed'],
    [1, 'failed', 'failed'],
    [-1, 'failed', 'failed'],
    [null, 'timed_out', 'timed_out'],
    [null, 'killed', 'killed'],
  ] as const)('exit %s with status %s → completion %s', (exitCode, status, completion) => {
    const receipt = buildExecutionReceipt(shellRun({ exitCode, status }));
    const doc = parse(buildToolCallAfterDocument({ toolName: 'Bash', sessionId: 's', toolCallId: 'c', receipt })!);
    expect((doc.execution_receipt as Record<string, unknown>).completion).toBe(completion);
    expect((doc.execution_receipt as Record<string, unknown>).exit_code).toBe(exitCode);
  });

  it('writes missing ids as null with false flags', () => {
    const receipt = buildExecutionReceipt(shellRun());
    const doc = parse(buildToolCallAfterDocument({ toolName: 'exec_shell', sessionId: null, toolCallId: null, receipt })!);
    expect(doc).toMatchObject({ session_id: null, tool_call_id: null, session_id_truncated: false, tool_call_id_truncated: false });
  });

  it('caps each id at 1,024 bytes plus ...[truncated], with its own flag', () => {
    const receipt = buildExecutionReceipt(shellRun());
    const exact = 'i'.repeat(1_024);
    const doc = parse(buildToolCallAfterDocument({ toolName: 'Bash', sessionId: exact, toolCallId: `${'鲸'.repeat(400)}`, receipt })!);
    expect(doc.session_id).toBe(exact);
    expect(doc.session_id_truncated).toBe(false);
    expect(doc.tool_call_id).toBe(`${'鲸'.repeat(341)}...[truncated]`);
    expect(doc.tool_call_id_truncated).toBe(true);
    const long = parse(buildToolCallAfterDocument({ toolName: 'Bash', sessionId: `${exact}x`, toolCallId: 'c', receipt })!);
    expect(long).toMatchObject({ session_id: `${exact}...[truncated]`, session_id_truncated: true, tool_call_id_truncated: false });
  });

  it('keeps command and cwd exact (their truncation flags are always false)', () => {
    const receipt = buildExecutionReceipt(shellRun({ command: 'c'.repeat(8_192), stdout: 'o'.repeat(200_000) }));
    const doc = buildToolCallAfterDocument({ toolName: 'Bash', sessionId: 's', toolCallId: 'c', receipt })!;
    const r = parse(doc).execution_receipt as Record<string, unknown>;
    expect(r).toMatchObject({ command: 'c'.repeat(8_192), command_truncated: false, cwd_truncated: false, execution: 'started', stdout_truncated: true });
    expect(utf8ByteLength(doc)).toBeLessThanOrEqual(65_536);
  });

  it('has no document without a receipt or for a tool that is not a native shell', () => {
    expect(buildToolCallAfterDocument({ toolName: 'Bash', sessionId: 's', toolCallId: 'c', receipt: null })).toBeNull();
    const receipt = buildExecutionReceipt(shellRun());
    expect(buildToolCallAfterDocument({ toolName: 'read', sessionId: 's', toolCallId: 'c', receipt })).toBeNull();
  });
});

describe('properties', () => {
  const blob = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 20_000 })).map(([u, n]) => u.repeat(n)),
  );
  const command = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme-ascii', maxLength: 2_000 }));

  it('a present receipt is ≤ 32 KiB, parses back, keeps command and cwd exact, and shows heads and tails of the output', () => {
    fc.assert(
      fc.property(fc.constantFrom('bash', 'Bash', 'exec_shell'), command, blob, blob, fc.option(fc.integer({ min: -5, max: 300 })), (toolName, cmd, out, err, exitCode) => {
        const r = buildExecutionReceipt(shellRun({ toolName, command: cmd, stdout: out, stderr: err, exitCode, status: exitCode === null ? 'killed' : 'failed' }));
        if (cmd.includes('\u0000')) {
          expect(r).toBeNull();
          return;
        }
        expect(r).not.toBeNull();
        expect(utf8ByteLength(r!.env)).toBeLessThanOrEqual(32_768);
        const p = parse(r!.env);
        expect(p.command).toBe(cmd);
        expect(isWellFormed(p.stdout as string)).toBe(true);
        for (const [preview, original] of [
          [p.stdout as string, out],
          [p.stderr as string, toolName === 'bash' ? '' : err],
        ] as const) {
          if (preview === original) continue;
          const at = preview.indexOf(MARK);
          expect(at).toBeGreaterThanOrEqual(0);
          expect(original.startsWith(preview.slice(0, at))).toBe(true);
          expect(original.endsWith(preview.slice(at + MARK.length))).toBe(true);
        }
        const doc = buildToolCallAfterDocument({ toolName, sessionId: 'sess_12345678', toolCallId: cmd, receipt: r });
        expect(doc).not.toBeNull();
        expect(utf8ByteLength(doc!)).toBeLessThanOrEqual(65_536);
      }),
      { numRuns: 100 },
    );
  });
});
