import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookDefinition } from '@codewhale/hooks-config';
import { HookRuntime } from './hook-runtime.js';
import { MemoryLogger } from './logger.js';
import { hookDef, hookSet } from '../test/helpers.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-peer-')));
const runtimes: HookRuntime[] = [];
let n = 0;
const out = (name: string) => join(dir, `${++n}-${name}`);

function runtime(hooks: HookDefinition[], logger = new MemoryLogger()): HookRuntime {
  const r = new HookRuntime({ hooks: hookSet(hooks), workspace: dir, parentEnv: { PATH: process.env.PATH, HOME: dir }, logger });
  runtimes.push(r);
  return r;
}

afterEach(async () => {
  for (const r of runtimes.splice(0)) {
    await r.idle();
    await r.close();
  }
});

const peer = (event: HookDefinition['event'], command: string, over: Partial<HookDefinition> = {}) => hookDef(event, command, { protocol: 'claude-code', ...over });
/** A hook that saves its stdin and `CLAUDE_PROJECT_DIR` to a file, then runs `then`. */
const capture = (file: string, then = 'exit 0') => `cat > ${file}; echo "$CLAUDE_PROJECT_DIR" > ${file}.dir; ${then}`;

describe('claude-code hooks in the runtime', () => {
  it('a gate reads the peer document on stdin and CLAUDE_PROJECT_DIR; a native gate beside it keeps the contract', async () => {
    const file = out('pre');
    const native = out('native');
    const r = runtime([peer('tool_call_before', capture(file)), hookDef('tool_call_before', `cat > ${native}; echo "[$CLAUDE_PROJECT_DIR]" >> ${native}`)]);
    const record = await r.toolCallBefore({ name: 'read', callId: 'call_9', input: { path: 'src/a.ts' }, mode: 'Agent', model: 'm', posture: 'full_access' });
    expect(record.decision).toBe('allow');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      session_id: r.sessionId,
      transcript_path: null,
      cwd: dir,
      permission_mode: 'bypassPermissions',
      hook_event_name: 'PreToolUse',
      model: 'm',
      tool_name: 'Read',
      tool_input: { file_path: join(dir, 'src', 'a.ts') },
      tool_use_id: 'call_9',
    });
    expect(readFileSync(`${file}.dir`, 'utf8')).toBe(`${dir}\n`);
    // The contract's tool_call_before has no stdin document, and the native hook gets no CLAUDE_PROJECT_DIR.
    expect(readFileSync(native, 'utf8')).toBe('[]\n');
    expect(JSON.parse(record.input.peer!)).toMatchObject({ tool_name: 'Read' });
    expect(record.hooks.map((h) => h.peer?.protocol ?? null)).toEqual(['claude-code', null]);
  });

  it('exit 2 with stderr denies with that reason; a strict peer gate exiting 1 stops the later gates and denies (its stdout, even one our protocol would read, does not count)', async () => {
    const later = out('later');
    const r = runtime([peer('tool_call_before', 'echo "Blocked by policy" >&2; exit 2')]);
    const denied = await r.toolCallBefore({ name: 'bash', callId: 'c', input: { command: 'rm -rf x' } });
    expect(denied).toMatchObject({ decision: 'deny', denyKind: 'exit_2', message: "ToolCallBefore hook denied tool 'bash': Blocked by policy" });
    const strict = runtime([
      peer('tool_call_before', `echo '{"decision":"allow","hookSpecificOutput":{"permissionDecision":"allow"}}'; exit 1`, { continueOnError: false }),
      hookDef('tool_call_before', `touch ${later}`),
    ]);
    const record = await strict.toolCallBefore({ name: 'bash', callId: 'c', input: { command: 'ls' } });
    expect(record).toMatchObject({ decision: 'deny', denyKind: 'no_verdict' });
    expect(record.hooks.map((h) => h.outcome)).toEqual(['no_verdict', 'skipped']);
  });

  it('message_submit: the prompt on stdin; context appended, a block blocks', async () => {
    const file = out('prompt');
    const ctx = `cat > ${file}; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch main"}}'`;
    const r = runtime([peer('message_submit', ctx)]);
    const res = await r.messageSubmit('hello there', { mode: 'ACT', posture: 'ask' });
    expect(res).toMatchObject({ kind: 'replaced', text: 'hello there\n\n[hook context] branch main' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'hello there', permission_mode: 'default' });
    const block = runtime([peer('message_submit', `echo '{"decision":"block","reason":"not today"}'`)]);
    expect(await block.messageSubmit('x')).toMatchObject({ kind: 'blocked', reason: 'not today' });
  });

  it('observers: PostToolUse gets the tool response; a Stop hook asking to continue is reported as unsupported', async () => {
    const file = out('post');
    const logger = new MemoryLogger();
    const r = runtime([peer('tool_call_after', capture(file)), peer('turn_end', `echo '{"decision":"block","reason":"keep going"}'`)], logger);
    r.fire('tool_call_after', { tool: { name: 'bash', callId: 'c1', input: { command: 'ls' }, result: 'a\n', success: true, exitCode: 0 } });
    r.fire('turn_end', {}, '{"event":"turn_end"}');
    await r.idle();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'c1',
      tool_response: { output: 'a\n', success: true, exit_code: 0 },
    });
    expect(logger.records).toContainEqual({
      message: 'unsupported request from a claude-code hook',
      fields: expect.objectContaining({ event: 'turn_end', detail: expect.stringContaining('Stop hook asked the agent to continue') }),
    });
  });
});
