import { isShellToolName, SHELL_TOOL_NAMES } from '@codewhale/hooks-payloads';
import { z } from 'zod';
import type { ModelToolSpec } from '../provider/types.js';
import { editTool, grepTool, listDirTool, readTool, writeTool } from './file-tools.js';
import { agentTool, requestUserInputTool, todoWriteTool } from './session-tools.js';
import { BashTool, bashTool, execShellTool } from './shell-tool.js';
import type { ToolDefinition } from './tool.js';

/** Every built-in tool: the model-facing set plus hidden compatibility names. */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  readTool,
  writeTool,
  editTool,
  bashTool,
  BashTool,
  execShellTool,
  listDirTool,
  grepTool,
  todoWriteTool,
  requestUserInputTool,
  agentTool,
];

/** The JSON Schema the model is shown for a tool's input. */
export function toolSpec(tool: ToolDefinition): ModelToolSpec {
  const schema = z.toJSONSchema(tool.schema) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
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
