// hooks-payloads / hooks-conditions / hooks-config: bounding and matching, pure CPU.
import { buildMessageSubmitDocument, foldToolCallBefore } from '@codewhale/hooks-payloads';
import { matchingHooks } from '@codewhale/hooks-config';
import { hookDefinition, hookSet } from '@codewhale/hooks-config/testing';
import { round, time } from './util.mjs';

export async function run() {
  const rows = [];
  // Bounding a huge message must stay linear in its size and cheaper than serializing it.
  const perByte = [];
  for (const mb of [5, 25, 50]) {
    const text = 'lorem ipsum dolor sit amet, 鲸 "quoted" \\ \n'.repeat(Math.ceil((mb * 1024 * 1024) / 46)).slice(0, mb * 1024 * 1024);
    const bound = time(() => buildMessageSubmitDocument({ text, sessionId: 'sess_12345678', workspace: '/w', mode: 'work', model: 'm', totalTokens: 1 }), { minMs: 200 });
    const stringify = time(() => JSON.stringify({ text }), { minMs: 200 });
    perByte.push((bound * 1e6) / text.length);
    rows.push({ name: `message_submit bound ${mb} MB`, value: round(bound), unit: 'ms', note: `JSON.stringify of it: ${round(stringify)} ms (ratio ${round(bound / stringify)})` });
  }
  rows.push({ name: 'message_submit bound cost per char, 5→50 MB', value: `${round(perByte[0], 3)}→${round(perByte[2], 3)}`, unit: 'ns/char', note: 'flat = linear' });

  // Matching 1,000 configured hooks for one tool call.
  const conditionFor = (i) =>
    i % 4 === 0
      ? { type: 'tool_name', name: `mcp__server${i}__*` }
      : i % 4 === 1
        ? {
            type: 'all',
            conditions: [
              { type: 'tool_category', category: 'shell' },
              { type: 'mode', mode: 'act' },
            ],
          }
        : i % 4 === 2
          ? {
              type: 'any',
              conditions: [
                { type: 'tool_name', name: 'bash' },
                { type: 'tool_name', name: 'write' },
              ],
            }
          : null;
  const events = ['tool_call_before', 'tool_call_after', 'shell_env'];
  const hooks = Array.from({ length: 1000 }, (_, i) => hookDefinition(events[i % 3], 'true', { name: `h${i}`, condition: conditionFor(i) }));
  const set = hookSet(hooks);
  const ctx = { event: 'tool_call_before', mode: 'Agent', tool: { name: 'bash', input: { command: 'ls' } } };
  let matched = 0;
  const ms = time(
    () => {
      matched = matchingHooks(set, ctx).length;
    },
    { minMs: 300 },
  );
  rows.push({ name: 'match 1,000 hooks for one tool call', value: round(ms * 1000, 1), unit: 'µs', note: `${matched} matched` });

  // Why the per-run records are written out field by field (checks/hot-path-literals.ts):
  // on Node 20 a literal that adds properties after a spread is a speed cliff.
  const base = { hook: 'h', background: false, strict: false, durationMs: 3 };
  let sink;
  const spread = time(
    () => {
      for (let i = 0; i < 1000; i++)
        sink = { ...base, success: true, exitCode: 0, signal: null, timedOut: false, spawnError: null, error: null, stdout: '', stderr: '', stdoutTruncated: false, stderrTruncated: false };
    },
    { minMs: 200 },
  );
  const literal = time(
    () => {
      for (let i = 0; i < 1000; i++)
        sink = {
          hook: base.hook,
          background: base.background,
          strict: base.strict,
          durationMs: base.durationMs,
          success: true,
          exitCode: 0,
          signal: null,
          timedOut: false,
          spawnError: null,
          error: null,
          stdout: '',
          stderr: '',
          stdoutTruncated: false,
          stderrTruncated: false,
        };
    },
    { minMs: 200 },
  );
  void sink;
  // time() gives ms per call of a function that builds 1,000 records: µs per record.
  rows.push({
    name: 'outcome record: 10 properties after a spread',
    value: round(spread, 2),
    unit: 'µs',
    note: `written out field by field: ${round(literal, 3)} µs (${round(spread / literal)}×); ${process.version}`,
  });
  const outcome = {
    hook: { index: 0, name: 'g', label: 'g', event: 'tool_call_before', source: 'global', continueOnError: true, background: false },
    background: false,
    strict: false,
    success: true,
    exitCode: 0,
    signal: null,
    timedOut: false,
    spawnError: null,
    error: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: 3,
  };
  const input = { command: 'npm test -- --grep "case 1"', timeout: 120 };
  const fold = time(() => foldToolCallBefore({ tool: 'bash', callId: 'c', originalInput: input, outcomes: [outcome] }), { minMs: 200 });
  rows.push({
    name: 'fold one gate outcome into a decision record',
    value: round(fold * 1000, 1),
    unit: 'µs',
    note: 'includes the redacted input preview (made ahead, while the gate runs, by HookRuntime)',
  });
  return rows;
}
