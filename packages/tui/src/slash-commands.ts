/** The slash commands the composer understands, their parsing and the completion menu. */
export interface SlashCommandSpec {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
}

export const SLASH_COMMANDS: readonly SlashCommandSpec[] = [
  { name: 'help', usage: '/help', summary: 'keys and commands' },
  { name: 'hooks', usage: '/hooks [list|events|review|approve <digest>|revoke|test …]', summary: 'the hooks toolbox (the same as `codewhale hooks`)' },
  { name: 'mode', usage: '/mode plan|work|operate', summary: 'switch mode (Tab on an empty composer cycles)' },
  { name: 'posture', usage: '/posture ask|auto|full', summary: 'switch approval posture (Shift+Tab cycles)' },
  { name: 'trust', usage: '/trust on|off|status', summary: 'session trust: file tools outside the workspace (never enables project hooks); status shows project hooks' },
  { name: 'agents', usage: '/agents', summary: 'sub-agents and their state' },
  { name: 'queue', usage: '/queue [drop <n>|clear]', summary: 'messages queued behind the running turn' },
  { name: 'steer', usage: '/steer <text>', summary: 'add text to the running turn' },
  { name: 'why', usage: '/why [n]', summary: 'the hook decision record of tool call #n (default: the last)' },
  { name: 'expand', usage: '/expand [n]', summary: 'the whole output of tool call #n (default: the last)' },
  { name: 'reload', usage: '/reload', summary: 're-read config.toml and hooks now' },
  { name: 'clear', usage: '/clear', summary: 'start a new conversation in this session' },
  { name: 'quit', usage: '/quit', summary: 'end the session (fires session_end) and exit' },
];

const ALIASES: Record<string, string> = { hook: 'hooks', exit: 'quit', q: 'quit', subagents: 'agents', '?': 'help' };

export type SlashParse =
  | { readonly kind: 'command'; readonly name: string; readonly args: readonly string[]; readonly rest: string }
  | { readonly kind: 'unknown'; readonly name: string; readonly suggestion: string | null }
  | { readonly kind: 'not_command' };

/** Split arguments on whitespace; "double" and 'single' quotes group. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

/** A composer text that starts with `/` is a command (a `//` prefix sends a literal slash message). */
export function parseSlash(text: string): SlashParse {
  const t = text.trim();
  if (!t.startsWith('/') || t.startsWith('//')) return { kind: 'not_command' };
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(t)!;
  const raw = m[1]!.toLowerCase();
  const name = ALIASES[raw] ?? raw;
  if (!SLASH_COMMANDS.some((c) => c.name === name)) {
    const c = completeSlash(`/${raw}`);
    return { kind: 'unknown', name: raw, suggestion: c[0]?.name ?? null };
  }
  return { kind: 'command', name, args: splitArgs(m[2]!), rest: m[2]! };
}

/**
 * The completion menu for a partly typed command: prefix matches first (in table order), then
 * other commands that contain the typed letters in order. Empty once a space was typed.
 */
export function completeSlash(text: string): readonly SlashCommandSpec[] {
  if (!text.startsWith('/') || /\s/.test(text) || text.startsWith('//')) return [];
  const typed = text.slice(1).toLowerCase();
  const prefix = SLASH_COMMANDS.filter((c) => c.name.startsWith(typed));
  const sub = SLASH_COMMANDS.filter((c) => !c.name.startsWith(typed) && isSubsequence(typed, c.name));
  return [...prefix, ...sub];
}

function isSubsequence(needle: string, hay: string): boolean {
  let i = 0;
  for (const ch of hay) if (i < needle.length && needle[i] === ch) i++;
  return i === needle.length;
}
