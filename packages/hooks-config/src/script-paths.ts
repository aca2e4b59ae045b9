/**
 * D13: the files inside the workspace that a project hook's command names, so `review` can
 * show and `approve` can pin them. Lexical and deliberately generous: a name that turns out
 * not to exist is pinned as absent, which only means "it must still not exist". Found:
 * - the command word of each simple command when it is a relative path (`./x.sh`, `bin/gate`);
 * - the script an interpreter runs (`sh ./a`, `python3 tools/check.py`, `. ./env.sh`),
 *   and scripts inside `sh -c '…'`;
 * - any argument with a script extension (`.sh`, `.py`, `.js`, …).
 * - a path under `$CLAUDE_PROJECT_DIR` (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh`,
 *   `${CLAUDE_PROJECT_DIR}/…`): a `claude-code` hook gets the workspace in that variable, and
 *   the scripts of imported Claude Code hooks are named that way.
 * Not found: redirection targets, other words with `$` / backtick expansion, globs, absolute or
 * home paths, URLs, and relative paths whose `..` climbs out of the workspace.
 */

const SCRIPT_EXTENSIONS = new Set([
  'sh',
  'bash',
  'zsh',
  'ksh',
  'fish',
  'py',
  'rb',
  'pl',
  'js',
  'mjs',
  'cjs',
  'ts',
  'mts',
  'cts',
  'php',
  'lua',
  'ps1',
  'psm1',
  'bat',
  'cmd',
  'tcl',
  'r',
  'jl',
  'go',
  'swift',
  'exs',
  'awk',
]);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'mksh']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'node', 'nodejs', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua', 'pwsh', 'powershell', 'tsx', 'ts-node', 'source', '.', 'awk']);
/** Words after which the command word is still to come. */
const PREFIXES = new Set(['env', 'exec', 'nohup', 'time', 'command', 'builtin', 'nice', 'then', 'do', 'else', 'if', 'elif', 'while', 'until', '!', '{', 'sudo', 'doas']);
const CODE_OPTIONS = new Set(['-c', '-e', '-m', '-p', '--eval', '--print', '-Command', '-EncodedCommand']);

interface Word {
  readonly text: string;
  /** Contains `$` or backtick expansion: its value is unknown. */
  readonly expands: boolean;
}
type Token = Word | { readonly op: string };

function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let expands = false;
  let started = false;
  const end = (): void => {
    if (started) tokens.push({ text, expands });
    text = '';
    expands = false;
    started = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === ' ' || c === '\t' || c === '\r') end();
    else if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      end();
      tokens.push({ op: c === '\n' ? ';' : c });
    } else if (c === '<' || c === '>') {
      // An fd number (`2>`) belongs to the redirection, not to the command.
      if (started && /^\d+$/.test(text) && !expands) {
        text = '';
        started = false;
      }
      end();
      while (command[i + 1] === '<' || command[i + 1] === '>') i++;
      if (command[i + 1] === '&') {
        i++;
        while (/[\d-]/.test(command[i + 1] ?? '')) i++;
        continue;
      }
      tokens.push({ op: 'redirect' });
    } else if (c === '#' && !started) {
      while (i + 1 < command.length && command[i + 1] !== '\n') i++;
    } else if (c === "'") {
      started = true;
      const close = command.indexOf("'", i + 1);
      const stop = close === -1 ? command.length : close;
      text += command.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      started = true;
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === '\\' && j + 1 < command.length && '"\\$`'.includes(command[j + 1]!)) j++;
        else if (command[j] === '$' || command[j] === '`') expands = true;
        text += command[j];
      }
      i = j;
    } else if (c === '\\') {
      if (command[i + 1] === '\n') i++;
      else if (i + 1 < command.length) {
        started = true;
        text += command[++i];
      }
    } else {
      started = true;
      if (c === '$' || c === '`') expands = true;
      text += c;
    }
  }
  end();
  return tokens;
}

/** `a/./b/../c` → `a/c`; `null` when it is empty or climbs out of the workspace. */
export function normalizeWorkspacePath(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.length ? parts.join('/') : null;
}

/** The workspace, as a `claude-code` hook's command names it. */
const PROJECT_DIR = /^(?:\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\})\//;

function candidate(word: Word): string | null {
  const underProject = PROJECT_DIR.exec(word.text);
  if (underProject) {
    const rest = word.text.slice(underProject[0].length);
    return /[$`]/.test(rest) ? null : candidate({ text: rest.replace(/^\/+/, ''), expands: false });
  }
  const t = word.text;
  if (word.expands || t === '' || t.startsWith('-')) return null;
  if (t.startsWith('/') || t.startsWith('~') || /^[A-Za-z]:[\\/]/.test(t) || t.startsWith('\\\\')) return null;
  if (t.includes('://') || /[*?[\]{}]/.test(t) || t.includes('\0')) return null;
  return normalizeWorkspacePath(t);
}

const extension = (t: string): string => {
  const base = t.replace(/\\/g, '/').split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};
const interpreterName = (t: string): string => {
  const base = t.split('/').pop() ?? t;
  return base === '.'
    ? base
    : base
        .replace(/(\d+(\.\d+)*)$/, '')
        .replace(/\.exe$/i, '')
        .toLowerCase();
};

/** The workspace-relative script paths `command` names (sorted, unique). See the module comment. */
export function scriptPathsInCommand(command: string): string[] {
  const found = new Set<string>();
  collect(command, found, 0);
  return [...found].sort();
}

function collect(command: string, found: Set<string>, depth: number): void {
  const add = (w: Word): void => {
    const p = candidate(w);
    if (p !== null) found.add(p);
  };
  let commandPosition = true;
  let interpreter: string | null = null;
  let nextIsCode = false;
  let redirectTarget = false;
  for (const token of tokenize(command)) {
    if ('op' in token) {
      if (token.op === 'redirect') redirectTarget = true;
      else {
        commandPosition = true;
        interpreter = null;
      }
      continue;
    }
    if (redirectTarget) {
      redirectTarget = false;
      continue;
    }
    const t = token.text;
    if (nextIsCode) {
      nextIsCode = false;
      if (!token.expands && depth < 4) collect(t, found, depth + 1);
      interpreter = null;
      continue;
    }
    if (commandPosition) {
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t) || PREFIXES.has(t) || (t.startsWith('-') && t.length > 1)) continue;
      commandPosition = false;
      const name = interpreterName(t);
      if (INTERPRETERS.has(name)) interpreter = name;
      else if (t.includes('/') || t.includes('\\') || SCRIPT_EXTENSIONS.has(extension(t))) add(token);
      continue;
    }
    if (interpreter !== null) {
      if (t.startsWith('-')) {
        if (SHELLS.has(interpreter) && /^-[A-Za-z]*c[A-Za-z]*$/.test(t)) nextIsCode = true;
        else if (CODE_OPTIONS.has(t)) interpreter = null;
        continue;
      }
      interpreter = null;
      add(token);
      continue;
    }
    if (SCRIPT_EXTENSIONS.has(extension(t))) add(token);
  }
}

/** The script paths every command names, merged (sorted, unique). */
export function scriptPathsInCommands(commands: Iterable<string>): string[] {
  const all = new Set<string>();
  for (const c of commands) for (const p of scriptPathsInCommand(c)) all.add(p);
  return [...all].sort();
}
