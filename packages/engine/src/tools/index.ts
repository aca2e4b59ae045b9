/**
 * `@codewhale/engine/tools` — the built-in tools and their building blocks, for embedders that
 * assemble their own tool set. A surface does not need this: sessions come with the built-ins.
 */
export {
  ToolError,
  type ToolDefinition,
  type ToolKind,
  type ToolResult,
  type ToolRunContext,
  type ToolServices,
  type ToolErrorKind,
  type UserInputRequest,
  type UserInputQuestion,
  type UserInputAnswer,
} from './tool.js';
export { BUILTIN_TOOLS, toolSpec, selectTools } from './registry.js';
export { readTool, writeTool, editTool, listDirTool, grepTool, type EditInput } from './file-tools.js';
export { todoWriteTool, requestUserInputTool, agentTool, type TodoWriteInput, type RequestUserInputInput, type AgentInput } from './session-tools.js';
export { bashTool, BashTool, execShellTool, SHELL_DEFAULTS } from './shell-tool.js';
export { resolveInWorkspace } from './workspace-path.js';
export { isDangerousCommand } from '../dangerous-command.js';
