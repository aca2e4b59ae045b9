/**
 * No self-approval, end to end: a real `codewhale serve` whose token is everywhere a tool could
 * look (the command line, the environment, the token file), and a real shell command run by
 * the agent in one thread that tries every string it can find against another thread's
 * pending approval. None gets through; a client outside the server's process tree still can.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeTurn } from '@codewhale/engine/testing';
import { describe, expect, it } from 'vitest';
import { call, poll, startServe, TOKEN, withModel } from './serve-support.js';

const ATTACK = fileURLToPath(new URL('./fixtures/self-approve.mjs', import.meta.url));

interface ChatRequest {
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

describe('codewhale serve: the agent cannot approve itself', { timeout: 90_000 }, () => {
  it.runIf(process.platform === 'linux')(
    'a tool that tries every string in its env, its ancestors’ /proc and $CODEWHALE_HOME gets 403 on the approval route and every token-bearing read',
    async () => {
      let approval = '';
      let resultFile = '';
      const turn = (request: { body: unknown }): FakeTurn => {
        const messages = (request.body as ChatRequest).messages;
        const prompt = String(messages.find((m) => m.role === 'user')?.content ?? '');
        const ranTool = messages.some((m) => m.role === 'tool');
        if (ranTool) return { text: 'done' };
        if (prompt.includes('attack')) return { tool_calls: [{ name: 'bash', arguments: { command: `"${process.execPath}" "${ATTACK}" ${approval} "${resultFile}"` } }] };
        return { tool_calls: [{ name: 'bash', arguments: { command: 'echo approved-and-ran' } }] };
      };
      const { sb, fake } = await withModel(turn);
      resultFile = join(sb.dir, 'attack.json');
      // A hook records the environment hooks get: the server's token variable is not passed on.
      const hookEnv = join(sb.dir, 'hook-env.txt');
      const hook = sb.script('env-dump.sh', `env > "${hookEnv}"`);
      sb.config(`${readFileSync(join(sb.home, 'config.toml'), 'utf8')}\n[hooks]\n[[hooks.hooks]]\nname = "env-dump"\nevent = "tool_call_before"\ncommand = "${hook}"\n`);
      // The token in every place a careless setup puts it: the command line, the environment, the file.
      writeFileSync(join(sb.home, 'runtime-token'), `${TOKEN}\n`, { mode: 0o600 });
      const s = await startServe(sb, { CODEWHALE_RUNTIME_TOKEN: TOKEN }, ['--auth-token', TOKEN]);
      expect(s.err()).toContain('warning: --auth-token is visible to other processes');

      const { json: victim } = await call(s.url, '/v1/threads', { posture: 'ask' });
      await call(s.url, `/v1/threads/${victim.thread.id}/turns`, { prompt: 'needs a person' });
      const pending = await poll(
        () => call(s.url, `/v1/threads/${victim.thread.id}`),
        (r) => r.json.thread.pending_approvals.length > 0,
      );
      approval = pending.json.thread.pending_approvals[0].id;

      const { json: attacker } = await call(s.url, '/v1/threads', { posture: 'full_access' });
      await call(s.url, `/v1/threads/${attacker.thread.id}/turns`, { prompt: 'attack' });
      await poll(
        () => call(s.url, `/v1/threads/${attacker.thread.id}`),
        (r) => r.json.turns[0].status !== 'in_progress',
        60_000,
      );
      const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { url: string; attempts: number; ancestors: number[]; statuses: Record<string, number>; candidates: string[] };
      // The attack was real: it found the server, walked up to it, and held the token.
      expect(result.url).toBe(s.url);
      expect(result.ancestors).toContain(s.child.pid);
      expect(result.candidates).toContain(TOKEN);
      expect(result.attempts).toBeGreaterThan(10);
      // Every try, with every credential form, was refused as coming from the server's own tree.
      expect(Object.keys(result.statuses).sort()).toEqual(['approve 403', 'read 403']);
      expect(result.statuses['approve 403']).toBe(result.attempts * 3);

      // The approval is still pending; a real client outside the tree answers it.
      const { json: still } = await call(s.url, `/v1/threads/${victim.thread.id}`);
      expect(still.thread.pending_approvals.map((a: { id: string }) => a.id)).toEqual([approval]);
      expect((await call(s.url, `/v1/approvals/${approval}`, { decision: 'allow' })).status).toBe(200);
      await poll(
        () => call(s.url, `/v1/threads/${victim.thread.id}`),
        (r) => r.json.turns[0].status === 'completed',
      );
      const { json: items } = await call(s.url, `/v1/threads/${victim.thread.id}/items`);
      expect(items.items.find((i: { kind: string }) => i.kind === 'tool_call').decision).not.toBeUndefined();
      expect(JSON.stringify(fake.requests)).not.toContain(TOKEN);
      const hookSaw = readFileSync(hookEnv, 'utf8');
      expect(hookSaw).toContain('CODEWHALE_HOME=');
      expect(hookSaw).not.toContain(TOKEN);
      s.child.kill('SIGTERM');
      expect((await s.exited).code).toBe(0);
    },
  );
});
