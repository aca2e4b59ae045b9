/**
 * Auto-Review's deterministic floor: shell commands that are refused without a person's
 * explicit approval. Deliberately conservative; matching is on the command text.
 */
const PATTERNS: readonly RegExp[] = [
  /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+)*-[a-zA-Z]*[rfRF]*\s*(\/|~|\*|\.\.?)(\s|$)/,
  /\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*[fF]|\brm\s+-[a-zA-Z]*[fF][a-zA-Z]*[rR]/,
  /\bsudo\b|\bdoas\b/,
  /\bmkfs(\.|\b)|\bdd\s+.*\bof=\/dev\//,
  /\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(sh|bash|zsh|python3?)\b/,
  /\bgit\s+push\b[^;&|]*(--force|-f\b|--mirror|--delete)/,
  /\bgit\s+(reset\s+--hard|clean\s+-[a-zA-Z]*f)/,
  /\bchmod\s+(-R\s+)?0?777\b/,
  /:\(\)\s*\{\s*:\|:&\s*\};:/,
  /\b(shutdown|reboot|halt|poweroff)\b/,
  />\s*\/dev\/sd[a-z]/,
];

/** True when Auto-Review must not run `command` on its own. */
export function isDangerousCommand(command: string): boolean {
  return PATTERNS.some((p) => p.test(command));
}
