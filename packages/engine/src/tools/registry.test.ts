import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, toolSpec } from './registry.js';
import type { ToolDefinition } from './tool.js';

describe('toolSpec', () => {
  it('builds each tool spec once and hands every request the same object', () => {
    for (const tool of BUILTIN_TOOLS) expect(toolSpec(tool)).toBe(toolSpec(tool));
  });

  it('returns what the schema converts to, without the $schema key', () => {
    for (const tool of BUILTIN_TOOLS) {
      const fresh = z.toJSONSchema(tool.schema) as Record<string, unknown>;
      delete fresh.$schema;
      expect(toolSpec(tool)).toEqual({ name: tool.name, description: tool.description, parameters: fresh });
    }
  });

  it('keys the memo by definition: a different definition with the same name gets its own spec', () => {
    const base = BUILTIN_TOOLS[0]!;
    const other: ToolDefinition = { ...base, description: 'another description', schema: z.object({ x: z.string() }).strict() } as ToolDefinition;
    expect(toolSpec(other).description).toBe('another description');
    expect(toolSpec(other).parameters).toMatchObject({ properties: { x: { type: 'string' } } });
    expect(toolSpec(base).description).toBe(base.description);
  });

  it('freezes the shared spec so one caller cannot change what the next request sends', () => {
    const spec = toolSpec(BUILTIN_TOOLS[0]!);
    expect(Object.isFrozen(spec)).toBe(true);
    expect(Object.isFrozen(spec.parameters)).toBe(true);
    expect(() => {
      (spec.parameters as Record<string, unknown>).extra = 1;
    }).toThrow(TypeError);
  });
});
