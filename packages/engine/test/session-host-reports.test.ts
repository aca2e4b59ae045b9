/**
 * What the session host tells a surface, through real sessions (real hook processes, the fake
 * OpenAI server on 127.0.0.1): a failed gate is reported as failed, with how and what it did to
 * the call; a tool's duration is its run, apart from the approval wait; the token totals move
 * during the first turn; a server's HTTP 500 carries its status, so it is labelled a provider
 * error while its category (retries, exit codes) stays `network`.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorLabel, type ErrorCategory } from '../src/errors.js';
import { openSession } from '../src/open-session.js';
import { OpenAICompatibleProvider } from '../src/provider/openai-compatible.js';
import type { HookActivityEnd, HostEvent } from '../src/surface.js';
import type { ToolCallOutcome } from '../src/events.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '../src/testing/index.js';
import fc from 'fast-check';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function sandbox(config: string) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cw-reports-')));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  writeFileSync(join(home, 'config.toml'), config);
  return { dir, home, ws, env: { PATH: process.env.PATH, HOME: dir, CODEWHALE_HOME: home } };
}

async function server(turns: FakeTurn[]): Promise<FakeOpenAIServer> {
  const s = await startFakeOpenAIServer({ turns });
  cleanups.push(() => s.close());
  return s;
}

const provider = (s: FakeOpenAIServer) => new OpenAICompatibleProvider({ id: 'fake', baseUrl: s.url, model: 'fake-model' });
const bash = (command: string, id = 'call_1'): FakeTurn => ({ tool_calls: [{ id, name: 'bash', arguments: { command } }] });

async function session(config: string, turns: FakeTurn[], opts: { posture?: 'ask' | 'full_access'; approveAfterMs?: number } = {}) {
  const sb = sandbox(config);
  const fake = await server(turns);
  const host = await openSession({
    workspace: sb.ws,
    env: sb.env,
    profile: 'tui',
    provider: provider(fake),
    flags: { posture: opts.posture ?? 'full_access' },
    interaction: {
      approve: async () => {
        await new Promise((r) => setTimeout(r, opts.approveAfterMs ?? 0));
        return 'allow';
      },
      askUser: async () => null,
    },
  });
  cleanups.push(() => host.dispose());
  const events: HostEvent[] = [];
  host.subscribe((e) => events.push(e));
  await host.start();
  return { host, events, fake, sb };
}

const gates = (events: HostEvent[]): HookActivityEnd[] => events.flatMap((e) => (e.type === 'hook_finished' && e.hook.event === 'tool_call_before' ? [e.hook] : []));
const outcomes = (events: HostEvent[]): ToolCallOutcome[] => events.flatMap((e) => (e.type === 'tool_call_completed' ? [e.outcome] : []));

describe('the session host reports', () => {
  it('a failed gate as failed: its exit status or how it failed, and whether the call went ahead', async () => {
    const gate = (name: string, command: string, more = '') => `[[hooks.hooks]]\nname = "${name}"\nevent = "tool_call_before"\ncommand = "${command}"\n${more}`;
    const config = `[hooks]\n${gate('crashes', 'echo boom >&2; exit 1')}\n${gate('missing', '/nonexistent/gate.sh')}\n${gate('slow', 'sleep 5', 'timeout_secs = 1\ncontinue_on_error = false\n')}`;
    const { host, events } = await session(config, [bash('echo hi'), { text: 'done' }]);
    await host.submit('go');
    const reported = gates(events).map((h) => [h.label, h.result, h.exitCode ?? null, h.detail]);
    expect(reported).toEqual([
      ['crashes', 'failed', 1, 'no verdict; ignored (continue_on_error = true)'],
      ['missing', 'failed', 127, 'no verdict; ignored (continue_on_error = true)'],
      ['slow', 'failed', null, 'hook timed out after 1s; the call is denied (continue_on_error = false)'],
    ]);
    expect(outcomes(events)[0]!.error?.kind).toBe('hook_denied');
  }, 30_000);

  it("a tool's duration without the wait for its approval, which is reported apart", async () => {
    const { host, events } = await session('', [bash('echo hi'), { text: 'done' }], { posture: 'ask', approveAfterMs: 1500 });
    await host.submit('go');
    const [o] = outcomes(events);
    expect(o!.result?.success).toBe(true);
    expect(o!.approvalWaitMs).toBeGreaterThanOrEqual(1400);
    expect(o!.durationMs).toBeLessThan(o!.approvalWaitMs!);
  }, 30_000);

  it('token totals that move during the first turn, as each model request reports its usage', async () => {
    const { host, events } = await session('', [
      { ...bash('echo hi'), usage: { prompt_tokens: 1234, completion_tokens: 56 } },
      { text: 'done', usage: { prompt_tokens: 2000, completion_tokens: 10 } },
    ]);
    let during: number | null = null;
    host.subscribe((e) => {
      if (e.type === 'tool_call_started') during = host.getSnapshot().totals.sessionTokens;
    });
    await host.submit('go');
    expect(during).toBe(1290);
    expect(host.getSnapshot().totals).toEqual({ sessionTokens: 3300, conversationTokens: 3300, inputTokens: 3234, outputTokens: 66 });
    const end = events.find((e) => e.type === 'turn_completed');
    expect(end?.type === 'turn_completed' && end.usage.inputTokens).toBe(3234);
  }, 30_000);

  it('an HTTP 500 with its status: labelled a provider error, its category still network', async () => {
    const config = '[retry]\nmax_retries = 1\ninitial_delay_ms = 10\nmax_delay_ms = 10\n';
    const sb = sandbox(config);
    const fake = await server([{ status: 500 }, { status: 500 }]);
    const host = await openSession({ workspace: sb.ws, env: sb.env, profile: 'tui', provider: provider(fake) });
    cleanups.push(() => host.dispose());
    const events: HostEvent[] = [];
    host.subscribe((e) => events.push(e));
    await host.start();
    const r = await host.submit('hi');
    expect(r.kind === 'ran' && r.summary.errorCategory).toBe('network');
    const retry = events.find((e) => e.type === 'retry');
    const error = events.find((e) => e.type === 'error');
    expect(retry?.type === 'retry' && [retry.category, retry.status]).toEqual(['network', 500]);
    expect(error?.type === 'error' && [error.category, error.status]).toEqual(['network', 500]);
    expect(error?.type === 'error' && errorLabel(error.category, error.status)).toBe('provider error (HTTP 500)');
  }, 30_000);
});

describe('errorLabel', () => {
  it('names the provider for a status the server answered with, and the category otherwise', () => {
    expect(errorLabel('network', 500)).toBe('provider error (HTTP 500)');
    expect(errorLabel('network', 503)).toBe('provider error (HTTP 503)');
    expect(errorLabel('rate_limit', 429)).toBe('rate limit (HTTP 429)');
    expect(errorLabel('authentication', 401)).toBe('authentication (HTTP 401)');
    expect(errorLabel('network', null)).toBe('network error');
    expect(errorLabel('timeout')).toBe('timeout');
  });

  it('property: a 5xx is never labelled "network"; without a status the label is the category', () => {
    const categories: ErrorCategory[] = ['network', 'authentication', 'authorization', 'rate_limit', 'timeout', 'budget', 'config', 'invalid_input', 'parse', 'tool', 'state', 'cancelled', 'internal'];
    fc.assert(
      fc.property(fc.constantFrom(...categories), fc.integer({ min: 500, max: 599 }), (category, status) => {
        expect(errorLabel(category, status)).toBe(`provider error (HTTP ${status})`);
        expect(errorLabel(category, null)).toMatch(new RegExp(`^${category.replace(/_/g, ' ')}( error)?$`));
      }),
    );
  });
});
