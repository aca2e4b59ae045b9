/** Where a workspace keeps its project hooks, relative to the workspace, `/`-separated (D7). */
export const PROJECT_HOOKS_RELATIVE_PATH = '.codewhale/hooks.toml';

/** The project hooks file of a workspace: `<workspace>/.codewhale/hooks.toml` (pure string join; the supervisor's `projectHooksPath` is the OS-path version). */
export function projectHooksFile(workspace: string): string {
  return `${workspace.replace(/[\\/]+$/, '')}/${PROJECT_HOOKS_RELATIVE_PATH}`;
}
