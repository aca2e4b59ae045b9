import { parse, TomlError } from 'smol-toml';

/**
 * A parsed TOML table. Its values are read as `unknown` and checked where they are used. The
 * type is this package's own: smol-toml is bundled into the build, so the type files must not
 * name it.
 */
export type TomlTable = { [key: string]: unknown };
import { sanitizeLine } from '@codewhale/hooks-payloads';
import { fail, ok, type FileIssue, type Result } from './result.js';

const MESSAGE_MAX_CHARS = 120;

/**
 * Parse TOML text the way every Codewhale config file is parsed: integers that do not fit a
 * double become `bigint` (so `3221225477` and huge values survive). A syntax error fails the
 * whole file with its line, column and a one-line message — never the file's content (smol-toml
 * appends a code excerpt to its message; that is dropped here).
 */
export function parseToml(text: string, file: string): Result<TomlTable, FileIssue> {
  try {
    return ok(parse(text, { integersAsBigInt: 'asNeeded' }));
  } catch (error) {
    const line = error instanceof TomlError ? error.line : null;
    const column = error instanceof TomlError ? error.column : null;
    const raw = error instanceof Error ? error.message : String(error);
    const first = raw.split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '');
    const message = sanitizeLine(first.trim() || 'invalid TOML', MESSAGE_MAX_CHARS).text;
    const where = line === null ? file : `${file}:${line}:${column ?? 1}`;
    return fail({ code: 'toml_syntax', file, line, column, message, summary: `${where}: TOML syntax error: ${message}` });
  }
}
