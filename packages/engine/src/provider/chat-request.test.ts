import { describe, expect, it } from 'vitest';
import { buildChatRequestBody, wireTools } from './chat-request.js';
import { AgentSession } from '../session.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './types.js';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const spec = { name: 'read', description: 'Read a file.', parameters: { type: 'object' } };

describe('the tool list on the wire', () => {
  it('is converted once per list and reused by every request of a session', async () => {
    const tools = Object.freeze([spec]);
    const opts = { replayReasoning: false, maxTokensField: 'max_tokens' } as const;
    const a = buildChatRequestBody({ model: 'm', messages: [], tools }, opts);
    const b = buildChatRequestBody({ model: 'm', messages: [], tools }, opts);
    expect(a['tools']).toBe(b['tools']);
    expect(a['tools']).toEqual([{ type: 'function', function: { name: 'read', description: 'Read a file.', parameters: { type: 'object' } } }]);
    expect(wireTools([spec])).not.toBe(a['tools']); // another list is its own entry

    // A session offers the same array on every model request of every turn.
    const seen: (readonly unknown[])[] = [];
    let n = 0;
    const provider: ModelProvider = {
      id: 'rec',
      model: 'm',
      async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
        seen.push(request.tools);
        if (n++ === 0) yield { type: 'tool_call', call: { id: 'c1', name: 'list_dir', arguments: '{}' } };
        else yield { type: 'text', delta: 'ok' };
        yield { type: 'finish', reason: 'stop' };
      },
    } as ModelProvider;
    const s = new AgentSession({ provider, workspace: realpathSync(mkdtempSync(join(tmpdir(), 'cw-req-'))), posture: 'full_access' });
    await s.runTurn('one');
    await s.runTurn('two');
    expect(seen.length).toBe(3);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
  });
});
