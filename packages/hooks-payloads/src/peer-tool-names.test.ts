import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import { HOOK_PROTOCOLS, isHookProtocol, isMcpToolName, ourToPeerToolName, PEER_TOOL_NAMES, peerToOurToolName, sameTool } from './peer-tool-names.js';
import { SHELL_TOOL_NAMES } from './shell-tools.js';

const OUR_BUILTINS = ['bash', 'Bash', 'exec_shell', 'read', 'write', 'edit', 'grep', 'list_dir', 'todo_write', 'agent'];

describe('protocol names', () => {
  it('are exactly codewhale (the default, first) and claude-code', () => {
    expect([...HOOK_PROTOCOLS]).toEqual(['codewhale', 'claude-code']);
    expect(Object.isFrozen(HOOK_PROTOCOLS)).toBe(true);
  });
  it('isHookProtocol accepts exactly the listed names', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('Claude-Code', 'claude_code', 'codex', 'CODEWHALE', ' claude-code')), (s) => {
        expect(isHookProtocol(s)).toBe((HOOK_PROTOCOLS as readonly string[]).includes(s));
      }),
    );
    for (const p of HOOK_PROTOCOLS) expect(isHookProtocol(p)).toBe(true);
    for (const v of [null, undefined, 1, {}, ['claude-code']]) expect(isHookProtocol(v)).toBe(false);
  });
});

describe('our tool names → the peer spelling', () => {
  it('maps the built-in tools as the peer spells them', () => {
    const got = Object.fromEntries(OUR_BUILTINS.map((n) => [n, ourToPeerToolName(n)]));
    expect(got).toEqual({
      bash: 'Bash',
      Bash: 'Bash',
      exec_shell: 'Bash',
      read: 'Read',
      write: 'Write',
      edit: 'Edit',
      grep: 'Grep',
      list_dir: 'LS',
      todo_write: 'TodoWrite',
      agent: 'Task',
    });
  });
  it('every spelling of the shell tool is Bash', () => {
    for (const n of SHELL_TOOL_NAMES) expect(ourToPeerToolName(n)).toBe('Bash');
  });
  it('leaves MCP names and names it does not know unchanged', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!OUR_BUILTINS.includes(s));
        expect(ourToPeerToolName(s)).toBe(s);
        expect(ourToPeerToolName(`mcp__${s}`)).toBe(`mcp__${s}`);
      }),
    );
  });
  it('does not read names off the object prototype', () => {
    for (const n of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(ourToPeerToolName(n)).toBe(n);
      expect(peerToOurToolName(n)).toBeNull();
    }
  });
});

describe('peer tool names → ours', () => {
  it('maps the peer tools we have, and MultiEdit / Agent to edit / agent', () => {
    const got = Object.fromEntries(PEER_TOOL_NAMES.map((n) => [n, peerToOurToolName(n)]));
    expect(got).toEqual({ Agent: 'agent', Bash: 'bash', Edit: 'edit', Grep: 'grep', LS: 'list_dir', MultiEdit: 'edit', Read: 'read', Task: 'agent', TodoWrite: 'todo_write', Write: 'write' });
  });
  it('has no name for peer tools we lack', () => {
    for (const n of ['WebFetch', 'WebSearch', 'Glob', 'NotebookEdit', 'bash', 'read', 'BASH', '']) expect(peerToOurToolName(n)).toBeNull();
  });
  it('keeps MCP names unchanged', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(peerToOurToolName(`mcp__${s}`)).toBe(`mcp__${s}`);
        expect(isMcpToolName(`mcp__${s}`)).toBe(true);
      }),
    );
  });
  it('round trip: ours → peer → ours names the same tool', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...OUR_BUILTINS),
          fc.string().map((s) => `mcp__${s}`),
        ),
        (ours) => {
          const back = peerToOurToolName(ourToPeerToolName(ours));
          expect(back).not.toBeNull();
          expect(sameTool(back!, ours)).toBe(true);
        },
      ),
    );
  });
  it('round trip: peer → ours → peer is the peer name, MultiEdit and Agent aside', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PEER_TOOL_NAMES), (peer) => {
        const ours = peerToOurToolName(peer)!;
        const again = ourToPeerToolName(ours);
        expect(again).toBe(peer === 'MultiEdit' ? 'Edit' : peer === 'Agent' ? 'Task' : peer);
      }),
    );
  });
});

describe('sameTool', () => {
  it('is equality, except that the shell spellings are one tool', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OUR_BUILTINS, 'x', 'mcp__a__b'), fc.constantFrom(...OUR_BUILTINS, 'x', 'mcp__a__b'), (a, b) => {
        const shell = (SHELL_TOOL_NAMES as readonly string[]).includes(a) && (SHELL_TOOL_NAMES as readonly string[]).includes(b);
        expect(sameTool(a, b)).toBe(a === b || shell);
      }),
    );
  });
});
