/**
 * The environment of a local shell command: a fixed allowlist of the parent's variables
 * (compared case-insensitively) and nothing else — ambient secrets never reach the command —
 * then the `shell_env` pairs on top, which win (upserted case-insensitively).
 */
import { setEnvVar } from '@codewhale/hooks-payloads';

const ALLOW = new Set(
  [
    'PATH HOME USER USERNAME LOGNAME LANG LANGUAGE LC_ALL LC_CTYPE LC_MESSAGES TERM COLORTERM NO_COLOR FORCE_COLOR SHELL TMPDIR TMP TEMP __CF_USER_TEXT_ENCODING',
    'SYSTEMROOT WINDIR COMSPEC PATHEXT USERPROFILE HOMEDRIVE HOMEPATH',
    'LIB LIBPATH INCLUDE VSINSTALLDIR VCINSTALLDIR VCTOOLSINSTALLDIR WINDOWSSDKDIR WINDOWSSDKVERSION UNIVERSALCRTSDKDIR UCRTVERSION EXTENSIONSDKDIR DEVENVDIR VISUALSTUDIOVERSION',
    'APPDATA LOCALAPPDATA PROGRAMDATA ALLUSERSPROFILE PROGRAMFILES PROGRAMFILES(X86) PROGRAMW6432 COMMONPROGRAMFILES COMMONPROGRAMFILES(X86) COMMONPROGRAMW6432 PROCESSOR_ARCHITECTURE NUGET_PACKAGES NUGET_HTTP_CACHE_PATH',
    'HTTP_PROXY HTTPS_PROXY NO_PROXY ALL_PROXY FTP_PROXY',
    'PYTHONIOENCODING PYTHONUTF8',
    'CARGO_HOME RUSTUP_HOME RUSTUP_TOOLCHAIN',
  ]
    .join(' ')
    .split(' '),
);

const SECRET_LIKE = /SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|API_KEY|ACCESS_KEY|PRIVATE_KEY|_KEY$/;

/** True when a parent variable may pass into a local shell command. */
export function isAllowedParentVar(key: string, platform: NodeJS.Platform = process.platform): boolean {
  const upper = key.toUpperCase();
  if (ALLOW.has(upper) || upper.startsWith('LC_') || upper.startsWith('DOTNET_')) return true;
  if (platform === 'win32' && /(_ROOT|_DIR|_HOME|_PATH|_PATHS|SDKROOT)$/.test(upper) && !SECRET_LIKE.test(upper)) return true;
  return false;
}

/** The allowlisted variables of a frozen parent (it cannot change), per platform. */
const allowedOfFrozen = new WeakMap<object, Map<NodeJS.Platform, Readonly<Record<string, string>>>>();

function allowedParentVars(parent: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): Record<string, string> {
  const cached = allowedOfFrozen.get(parent)?.get(platform);
  if (cached) return { ...cached };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && isAllowedParentVar(k, platform)) env[k] = v;
  if (Object.isFrozen(parent)) {
    const byPlatform = allowedOfFrozen.get(parent) ?? new Map<NodeJS.Platform, Readonly<Record<string, string>>>();
    byPlatform.set(platform, Object.freeze({ ...env }));
    allowedOfFrozen.set(parent, byPlatform);
  }
  return env;
}

/**
 * Build the child environment: allowlisted parent variables, then `extra` on top
 * (case-insensitive upsert). A frozen parent (the CLI's copy of its environment) is taken to
 * hold fixed values: it is filtered once, not again for every command.
 */
export function shellCommandEnv(
  parent: Readonly<Record<string, string | undefined>>,
  extra: ReadonlyMap<string, string> | null = null,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env = allowedParentVars(parent, platform);
  if (extra) {
    for (const [k, v] of extra) {
      for (const existing of Object.keys(env)) if (existing.toUpperCase() === k.toUpperCase()) delete env[existing];
      setEnvVar(env, k, v);
    }
  }
  return env;
}
