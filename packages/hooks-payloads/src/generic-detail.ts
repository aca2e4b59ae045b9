/** Detail used when a hook's error is missing or not one of the recognised shapes. */
export const NO_VERDICT_DETAIL = 'hook returned no verdict';
/** Detail for a steering hook whose stdout exceeded its capture cap (D16). */
export const OVERSIZED_OUTPUT_DETAIL = 'no verdict: output exceeded 64 KiB';

/**
 * Re-render a runner error as a fixed, safe detail. This is an allowlist, not a
 * pass-through: a recognised shape keeps only its digits or its error-kind letters, and
 * anything else (which could carry a path, a command line or a token) collapses to
 * `hook returned no verdict`.
 */
export function genericDetail(error: string | null | undefined): string {
  if (!error) return NO_VERDICT_DETAIL;
  if (error.startsWith('Hook timed out after') || error.startsWith('hook timed out after')) {
    const digits = /^\s*(\d+)/.exec(error.slice('Hook timed out after'.length));
    return digits ? `hook timed out after ${digits[1]}s` : 'hook timed out';
  }
  if (error.startsWith('hook process could not be started')) {
    const m = /^hook process could not be started \(([^)]*)\)/.exec(error);
    const kind = m ? m[1]!.replace(/[^A-Za-z]/g, '') : '';
    return kind ? `hook process could not be started (${kind})` : 'hook process could not be started';
  }
  if (error.startsWith('failed to contain hook process tree') || error.startsWith('failed to resume contained hook process')) {
    return 'hook process could not be contained';
  }
  if (error === 'hook executor did not run' || error === 'hook was cancelled') return error;
  if (error.startsWith(OVERSIZED_OUTPUT_DETAIL)) return OVERSIZED_OUTPUT_DETAIL;
  if (error.startsWith('hook output stayed open after the hook exited')) return 'hook output stayed open after the hook exited';
  if (error.startsWith('project hook approval was revoked')) return 'hook approval was revoked';
  if (
    error.startsWith('Failed to submit background hook') ||
    error.startsWith('background hook supervisor could not be started') ||
    error === 'background hook supervisor queue is full' ||
    error === 'background hook supervisor is unavailable'
  ) {
    return 'hook could not be submitted';
  }
  if (
    error.startsWith('Failed to wait for hook') ||
    error.startsWith('hook could not be reaped') ||
    error.startsWith('Failed to encode hook stdin') ||
    /^hook (stdout|stderr) reader could not be started/.test(error) ||
    error.startsWith('hook stdin writer could not be started') ||
    error.startsWith('background hook process could not be started') ||
    error.startsWith('background hook stdin writer') ||
    error.startsWith('background hook setup')
  ) {
    return 'hook did not complete cleanly';
  }
  return NO_VERDICT_DETAIL;
}
