/**
 * The command line's bundle ships codewhale-spawn (the supervisor's posix_spawn for its
 * process host) in dist/native/, and a real `codewhale exec` loads it: a shell command finds
 * its parent, the host, with the module mapped into its memory.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { NATIVE_SPAWNER_FILE, nativeSpawnerPath } from '@codewhale/hooks-supervisor';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeTurn } from '@codewhale/engine/testing';
import { sandbox } from './run-cli.js';

const bundled = new URL(`../dist/native/${NATIVE_SPAWNER_FILE}`, import.meta.url);
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

// The modules the host (the command's parent) has mapped, by file name.
const SHOW_HOST_MODULES = `grep -o '[^/]*\\.node$' /proc/$PPID/maps | sort -u`;

describe.runIf(process.platform === 'linux' && nativeSpawnerPath() !== null)('codewhale-spawn in the command line', () => {
  it('is copied next to the bundle, and the host of a real exec loads it (CODEWHALE_HOST_SPAWN=handles keeps it out)', async () => {
    expect(existsSync(bundled)).toBe(true);
    const modules = async (env: Record<string, string>): Promise<string> => {
      const turns: FakeTurn[] = [
        { tool_calls: [{ id: 'c1', name: 'bash', arguments: { command: 'true' } }] },
        { tool_calls: [{ id: 'c2', name: 'bash', arguments: { command: `sleep 0.3; ${SHOW_HOST_MODULES}` } }] },
        { text: 'done' },
      ];
      const server = await startFakeOpenAIServer({ turns });
      servers.push(server);
      const sb = sandbox();
      sb.config(`provider = "fake"\n\n[providers.fake]\nbase_url = "${server.url}"\nmodel = "fake-model"\n`);
      const r = await sb.run(['exec', '--auto', 'show the host'], { env });
      expect(r.code, r.stderr).toBe(0);
      const tools = (server.requests[2] as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content);
      return tools[1] ?? '';
    };
    expect(await modules({})).toContain(NATIVE_SPAWNER_FILE);
    expect(await modules({ CODEWHALE_HOST_SPAWN: 'handles' })).not.toContain(NATIVE_SPAWNER_FILE);
  }, 60_000);
});
