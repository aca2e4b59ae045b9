/**
 * Where the supervisor reports what went wrong. Every record is under the `hooks` target and
 * carries only safe fields: the sanitized label, the event, the exit code, the duration, a
 * generic detail. Raw stdout, stderr, error text, commands and env values are never logged.
 */
export interface HookLogger {
  warn(message: string, fields?: Readonly<Record<string, string | number | boolean | null>>): void;
}

/** A logger that drops everything. */
export const SILENT_LOGGER: HookLogger = { warn: () => {} };

/** A logger that keeps records in memory (for `hooks test`, tests, and surfaces that show them later). */
export class MemoryLogger implements HookLogger {
  readonly records: { message: string; fields: Readonly<Record<string, string | number | boolean | null>> }[] = [];
  warn(message: string, fields: Readonly<Record<string, string | number | boolean | null>> = {}): void {
    this.records.push({ message, fields });
  }
}
