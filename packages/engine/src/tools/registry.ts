import { isShellToolName, SHELL_TOOL_NAMES } from '@codewhale/hooks-payloads';
import * as z from 'zod';
import type { ModelToolSpec } from '../provider/types.js';
import { editTool, grepTool, listDirTool, readTool, writeTool } from './file-tools.js';
import { agentTool, requestUserInputTool, todoWriteTool } from './session-tools.js';
import { BashTool, bashTool, execShellTool } from './shell-tool.js';
import type { ToolDefinition } from './tool.js';

/** Every built-in tool: the model-facing set plus hidden compatibility names. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [readTool, writeTool, editTool, bashTool, BashTool, execShellTool, listDirTool, grepTool, todoWriteTool, requestUserInputTool, agentTool];

/**
 * Specs already built, keyed by the tool definition. A definition is immutable once
 * registered (its name, description and zod schema never change), so its spec is built once
 * and shared by every model request instead of re-deriving the JSON Schema each time.
 */
const specs = new WeakMap<ToolDefinition, ModelToolSpec>();

function frozenDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) frozenDeep(v);
  }
  return value;
}

/**
 * The JSON Schema the model is shown for a tool's input. Memoized per definition; the result
 * is deeply frozen because every caller shares it (copy it before changing anything).
 */
export function toolSpec(tool: ToolDefinition): ModelToolSpec {
  const cached = specs.get(tool);
  if (cached) return cached;
  const schema = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  delete schema.$schema;
  const spec = frozenDeep({ name: tool.name, description: tool.description, parameters: schema });
  specs.set(tool, spec);
  return spec;
}

/**
 * Filter a tool set by `allowed` / `disallowed` name lists (deny wins). An allowed list
 * naming a shell spelling allows all three spellings, as hook conditions do.
 */
export function selectTools(tools: readonly ToolDefinition[], allowed: readonly string[] | null, disallowed: readonly string[]): ToolDefinition[] {
  const expand = (names: readonly string[]) => new Set<string>(names.flatMap((n) => (isShellToolName(n) ? SHELL_TOOL_NAMES : [n])));
  const allow = allowed ? expand(allowed) : null;
  const deny = expand(disallowed);
  return tools.filter((t) => !deny.has(t.name) && (allow === null || allow.has(t.name)));
}
