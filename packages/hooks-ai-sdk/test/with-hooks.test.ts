/**
 * End to end through the AI SDK: `generateText` and `streamText` drive the SDK's mock
 * language model, the tools are wrapped with a real `openHooks` (config.toml on disk, real
 * hook processes). Each test checks what the tools ran with, what the model was sent next and
 * what the hooks saw.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, type ModelMessage, stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { openHooks, shellCommandEnv, type Hooks } from '@codewhale/hooks';
import { hookEnv, withHooks } from '../src/index.js';

const opened: Hooks[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.close();
});

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
type Call = { id: string; name: string; input: object };
const toolStep = (calls: Call[]) => ({
  content: calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) })),
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const textStep = (text: string) => ({ content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] });
const streamStep = (calls: Call[] | string) => ({
  stream: convertArrayToReadableStream(
    typeof calls === 'string'
      ? [
          { type: 'text-start' as const, id: 't' },
          { type: 'text-delta' as const, id: 't', delta: calls },
          { type: 'text-end' as const, id: 't' },
          { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: undefined }, usage },
        ]
      : [
          ...calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) })),
          { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage },
        ],
  ),
});

async function setup(toml: (dir: string) => string) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-ai-sdk-')));
  const home = join(dir, 'home');
  mkdirSync(home);
  writeFileSync(join(home, 'config.toml'), `[hooks]\nenabled = true\n\n${toml(dir)}`);
  const hooks = await openHooks({ workspace: dir, home, env: { PATH: process.env.PATH, HOME: dir, CODEWHALE_CONFIG_PATH: '' } });
  opened.push(hooks);
  const ran: { name: string; input: unknown }[] = [];
  const tools = {
    bash: tool({
      description: 'run a shell command',
      inputSchema: z.object({ command: z.string() }),
      execute: async ({ command }, options) => {
        ran.push({ name: 'bash', input: { command } });
        return execFileSync('/bin/sh', ['-c', command], { env: shellCommandEnv({ PATH: process.env.PATH }, hookEnv(options)), encoding: 'utf8' });
      },
    }),
    list_dir: tool({
      description: 'list a directory',
      inputSchema: z.object({ path: z.string(), depth: z.number().default(1) }),
      execute: async (input, options) => {
        ran.push({ name: 'list_dir', input });
        return { entries: ['a', 'b'], envValues: hookEnv(options).size };
      },
    }),
  };
  return { dir, home, hooks, tools, ran };
}

const hook = (event: string, command: string, more = '') => `[[hooks.hooks]]\nevent = "${event}"\ncommand = ${JSON.stringify(command)}\n${more}\n`;
const GUARD = hook(
  'tool_call_before',
  `case "$DEEPSEEK_TOOL_ARGS" in *--force*) echo '{"decision":"deny","reason":"force pushes are off"}';; *rm*) echo '{"decision":"ask","reason":"this deletes files"}';; esac`,
  'name = "git-guard"\ncondition = { type = "tool_name", name = "bash" }',
);
const NOTE = hook('tool_call_before', `echo '{"additionalContext":"generated files live in dist/"}'`, 'condition = { type = "tool_name", name = "list_dir" }');
const CREDS = hook('shell_env', 'echo DEPLOY_TOKEN=tok-7f3a9c2e');
const AFTER = (dir: string) => hook('tool_call_after', `echo "$DEEPSEEK_TOOL_NAME $DEEPSEEK_TOOL_SUCCESS" >> ${dir}/after.log`);

describe('withHooks through generateText', () => {
  it('gates the parallel calls of one step each on its own: deny as the tool error, shell_env for the shell only, context appended, tool_call_after for all', async () => {
    const s = await setup((dir) => GUARD + NOTE + CREDS + AFTER(dir));
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolStep([
          { id: 'c1', name: 'bash', input: { command: 'git push --force' } },
          { id: 'c2', name: 'bash', input: { command: 'echo "token=$DEPLOY_TOKEN"' } },
          { id: 'c3', name: 'list_dir', input: { path: 'src' } },
        ]),
        textStep('done'),
      ],
    });
    const result = await generateText({ model, tools: withHooks(s.tools, s.hooks), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(result.text).toBe('done');
    // The denied call never ran; the others did, list_dir with its defaults and no env values.
    expect(s.ran).toHaveLength(2);
    expect(s.ran).toEqual(
      expect.arrayContaining([
        { name: 'bash', input: { command: 'echo "token=$DEPLOY_TOKEN"' } },
        { name: 'list_dir', input: { path: 'src', depth: 1 } },
      ]),
    );
    // What the model was sent next.
    const tools = (model.doGenerateCalls[1]!.prompt as { role: string; content: { toolCallId: string; output: { type: string; value: unknown } }[] }[])
      .filter((m) => m.role === 'tool')
      .flatMap((m) => m.content);
    const byId = Object.fromEntries(tools.map((p) => [p.toolCallId, p.output]));
    expect(byId.c1).toMatchObject({ type: 'error-text' });
    expect(String(byId.c1!.value)).toContain('force pushes are off');
    expect(byId.c2).toEqual({ type: 'text', value: 'token=***\n' });
    expect(byId.c3!.value).toBe('{"entries":["a","b"],"envValues":0}\n\n[hook context] generated files live in dist/');
    // The app still gets the tool's own output.
    expect(result.steps[0]!.toolResults.find((r) => r.toolCallId === 'c2')!.output).toBe('token=tok-7f3a9c2e\n');
    await s.hooks.idle();
    expect(readFileSync(join(s.dir, 'after.log'), 'utf8').trim().split('\n').sort()).toEqual(['bash false', 'bash true', 'list_dir true']);
    expect(readFileSync(join(s.home, 'audit.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('ask goes to approve: no denies with the reason, yes runs', async () => {
    const s = await setup(() => GUARD);
    const asked: string[] = [];
    const model = new MockLanguageModelV3({ doGenerate: [toolStep([{ id: 'c1', name: 'bash', input: { command: 'rm -r build' } }]), textStep('ok')] });
    await generateText({ model, tools: withHooks(s.tools, s.hooks, { approve: (r) => (asked.push(`${r.hook}: ${r.reason}`), false) }), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(asked).toEqual(['git-guard: this deletes files']);
    expect(s.ran).toEqual([]);
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('not approved: this deletes files');
    const model2 = new MockLanguageModelV3({ doGenerate: [toolStep([{ id: 'c1', name: 'bash', input: { command: 'rm -rf nothing-here' } }]), textStep('ok')] });
    await generateText({ model: model2, tools: withHooks(s.tools, s.hooks, { approve: () => true }), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(s.ran).toEqual([{ name: 'bash', input: { command: 'rm -rf nothing-here' } }]);
  });

  it('a rewrite is checked against the tool schema: a valid one runs (defaults filled in), an invalid one is the tool error', async () => {
    const s = await setup(
      () =>
        hook('tool_call_before', `echo '{"updatedInput":{"path":"lib"}}'`, 'condition = { type = "tool_name", name = "list_dir" }') +
        hook('tool_call_before', `echo '{"updatedInput":{"command":42}}'`, 'condition = { type = "tool_name", name = "bash" }'),
    );
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolStep([
          { id: 'c1', name: 'list_dir', input: { path: 'src', depth: 3 } },
          { id: 'c2', name: 'bash', input: { command: 'ls' } },
        ]),
        textStep('ok'),
      ],
    });
    await generateText({ model, tools: withHooks(s.tools, s.hooks), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(s.ran).toEqual([{ name: 'list_dir', input: { path: 'lib', depth: 1 } }]);
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain("rewrote the input of 'bash' into one the tool does not accept: command:");
  });

  it('the SDK abort signal kills a slow gate', async () => {
    const s = await setup((dir) => hook('tool_call_before', `echo $$ > ${dir}/gate.pid; sleep 30`, 'timeout_secs = 60'));
    const model = new MockLanguageModelV3({ doGenerate: [toolStep([{ id: 'c1', name: 'bash', input: { command: 'ls' } }]), textStep('ok')] });
    const ac = new AbortController();
    const started = performance.now();
    const run = generateText({ model, tools: withHooks(s.tools, s.hooks, { approve: () => true }), prompt: 'go', stopWhen: stepCountIs(3), abortSignal: ac.signal });
    while (!existsSync(join(s.dir, 'gate.pid'))) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    await run.catch(() => undefined);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(s.ran).toEqual([]);
  });
});

describe('withHooks through streamText', () => {
  it('an ask without approve becomes the SDK approval request; the approved call then runs with its shell_env values', async () => {
    const s = await setup((dir) => GUARD + CREDS + AFTER(dir));
    const dir = s.dir;
    const script = join(dir, 'cleanup.sh');
    writeFileSync(script, '#!/bin/sh\necho "cleaning with $DEPLOY_TOKEN"\n');
    chmodSync(script, 0o755);
    const tools = withHooks(s.tools, s.hooks);
    const model = new MockLanguageModelV3({ doStream: [streamStep([{ id: 'c1', name: 'bash', input: { command: `rm -rf build; ${script}` } }]), streamStep('cleaned')] });
    const first = streamText({ model, tools, prompt: 'clean up', stopWhen: stepCountIs(3) });
    const parts = [];
    for await (const p of first.fullStream) parts.push(p);
    const request = parts.find((p) => p.type === 'tool-approval-request') as { approvalId: string; toolCall: { toolCallId: string } } | undefined;
    expect(request?.toolCall.toolCallId).toBe('c1');
    expect(s.ran).toEqual([]);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'clean up' },
      ...(await first.response).messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
    ];
    const second = streamText({ model, tools, messages, stopWhen: stepCountIs(3) });
    expect(await second.text).toBe('cleaned');
    expect(s.ran).toHaveLength(1);
    const sent = JSON.stringify(model.doStreamCalls[1]!.prompt);
    expect(sent).toContain('cleaning with ***');
    expect(sent).not.toContain('tok-7f3a9c2e');
    await s.hooks.idle();
    expect(readFileSync(join(dir, 'after.log'), 'utf8')).toBe('bash true\n');
  });
});
