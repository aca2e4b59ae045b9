import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the token came from (never the token itself: that is not printed). */
export type TokenSource = 'flag' | 'CODEWHALE_RUNTIME_TOKEN' | 'DEEPSEEK_RUNTIME_TOKEN' | 'file' | 'generated';

export interface ResolvedToken {
  readonly token: string;
  readonly source: TokenSource;
  /** The 0600 token file, for `file` and `generated`. */
  readonly file: string | null;
}

/** The token file under `$CODEWHALE_HOME`. */
export function tokenFilePath(home: string): string {
  return join(home, 'runtime-token');
}

/**
 * The server's token: `--auth-token`, then `CODEWHALE_RUNTIME_TOKEN`, then
 * `DEEPSEEK_RUNTIME_TOKEN`; otherwise the one in `$CODEWHALE_HOME/runtime-token`, created
 * (`cwrt_` + 32 random bytes, hex) with mode 0600 when missing. An existing token file that
 * others can read is tightened to 0600.
 */
export function resolveToken(options: { flag?: string | null; env: Readonly<Record<string, string | undefined>>; home: string }): ResolvedToken {
  const flag = options.flag?.trim();
  if (flag) return { token: flag, source: 'flag', file: null };
  for (const name of ['CODEWHALE_RUNTIME_TOKEN', 'DEEPSEEK_RUNTIME_TOKEN'] as const) {
    const v = options.env[name]?.trim();
    if (v) return { token: v, source: name, file: null };
  }
  const file = tokenFilePath(options.home);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing) {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return { token: existing, source: 'file', file };
    }
  } catch {
    // missing: generate below
  }
  const token = `cwrt_${randomBytes(32).toString('hex')}`;
  mkdirSync(options.home, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: 'generated', file };
}
