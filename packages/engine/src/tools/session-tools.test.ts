import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolRunContext } from './tool.js';
import { agentTool, withoutSubagentMarker } from './session-tools.js';

describe('the agent tool result', () => {
  it('tells the model which sub-agent finished; withoutSubagentMarker gives back exactly its answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.constantFrom('completed', 'failed', 'cancelled'), async (answer, status) => {
        const ctx = { signal: new AbortController().signal, services: { runSubagent: async () => ({ agentId: 'agent_1', result: answer, status }) } } as unknown as ToolRunContext;
        const r = await agentTool.execute({ prompt: 'p' }, ctx);
        expect(r.content).toContain(`<codewhale:subagent.done>{"agent_id":"agent_1","status":"${status}"}</codewhale:subagent.done>`);
        expect(withoutSubagentMarker(r.content)).toBe(answer);
      }),
    );
  });

  it('leaves any other text as it is', () => {
    fc.assert(
      fc.property(fc.string(), (t) => {
        fc.pre(!t.includes('<codewhale:subagent.done>'));
        expect(withoutSubagentMarker(t)).toBe(t);
      }),
    );
  });
});
