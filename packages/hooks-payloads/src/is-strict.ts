/**
 * Is a hook strict — does its failure stop the later hooks of its event and, for a gate,
 * deny? Exactly when it was configured `continue_on_error = false` **and** runs in the
 * foreground: a background hook is never awaited, so it can never be strict. `background`
 * is whether the hook really runs in the background (`HookIdentity.background`, i.e.
 * `HookDefinition.runsInBackground`: a `shell_env` hook written `background = true` still runs
 * in the foreground and can be strict).
 */
export function isStrict(hook: { readonly continueOnError: boolean; readonly background: boolean }): boolean {
  return !hook.continueOnError && !hook.background;
}
