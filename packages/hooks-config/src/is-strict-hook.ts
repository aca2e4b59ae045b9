import { isStrict } from '@codewhale/hooks-payloads';

/**
 * A strict hook: `continue_on_error = false` and not in the background. Its failure fails
 * closed (a strict gate with no verdict denies, a strict `message_submit` failure blocks) and
 * stops the later hooks of an event whose policy says so. Background hooks are never strict:
 * nobody waits for them. The {@link HookDefinition} form of `isStrict` (one formula).
 */
export function isStrictHook(hook: { readonly continueOnError: boolean; readonly runsInBackground: boolean }): boolean {
  return isStrict({ continueOnError: hook.continueOnError, background: hook.runsInBackground });
}
