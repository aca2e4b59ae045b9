import type { HookCondition } from '@codewhale/hooks-conditions';
import { peerToOurEvent, type HookEventName } from '@codewhale/hooks-payloads';
import { isMatchAll, readMatcher, translateToolMatcher, type PeerAgent } from './peer-matcher.js';
import { isTable } from './schema.js';

/** Which Codewhale file an imported hook belongs in: the user's config.toml or the project's hooks.toml. */
export type ImportScope = 'user' | 'project';

/** One peer settings file, already parsed (JSON or TOML), and whose hooks it holds. */
export interface PeerHooksFile {
  /** How to name the file in the report. */
  readonly file: string;
  readonly scope: ImportScope;
  readonly document: unknown;
}

/** Where in a peer file a hook was written: `PreToolUse[0].hooks[1]` is group 0, hook 1. */
export interface PeerHookOrigin {
  readonly file: string;
  /** The peer's event name (`PreToolUse`), `null` for a problem with the file's `hooks` itself. */
  readonly event: string | null;
  readonly matcher: string | null;
  /** 0-based index of the matcher group, when the problem is inside one. */
  readonly group: number | null;
  /** 0-based index of the hook in its group, when the problem is one hook. */
  readonly hook: number | null;
}

/** A Codewhale `[[hooks.hooks]]` / `[[hooks]]` entry, as it will be written (keys in this order). */
export interface ImportedHookEntry {
  readonly name: string;
  readonly event: HookEventName;
  readonly protocol: 'claude-code';
  readonly command: string;
  readonly timeout_secs: number;
  readonly background?: true;
  readonly condition?: HookCondition;
}

export interface ImportedHook {
  readonly scope: ImportScope;
  readonly origin: PeerHookOrigin;
  readonly entry: ImportedHookEntry;
  /** What changed on the way (a converted timeout, a dropped key…), one line each. */
  readonly notes: readonly string[];
}

export interface SkippedPeerHook {
  readonly origin: PeerHookOrigin;
  /** Why it cannot be carried over, one line. */
  readonly reason: string;
}

export interface PeerImport {
  readonly entries: readonly ImportedHook[];
  readonly skipped: readonly SkippedPeerHook[];
}

/** Both peers' default hook timeout, in seconds. */
export const PEER_DEFAULT_TIMEOUT_SECS = 600;
/** The largest timeout Codewhale applies (D20); a longer one is written as this. */
const MAX_TIMEOUT_SECS = 2_147_483;
const NAME_MAX_MATCHER_CHARS = 40;

export const PEER_LABEL: Readonly<Record<PeerAgent, string>> = { 'claude-code': 'Claude Code', codex: 'Codex' };

const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse']);
const SESSION_SOURCES = ['startup', 'resume', 'clear', 'compact'] as const;
/** Claude Code events whose matcher selects something Codewhale conditions cannot see. */
const CLAUDE_MATCHER_SUBJECT: Readonly<Record<string, string>> = {
  Notification: 'the kind of notification',
  SessionEnd: 'the reason the session ended',
  SubagentStop: 'the kind of sub-agent',
};
/** Peer events that can steer in the peer but are observers here: what the hook's answer no longer does. */
const OBSERVER_NOTES: Readonly<Record<string, string>> = {
  PostToolUse: '`tool_call_after` only observes: feedback for the model (exit 2, `decision: "block"`, `additionalContext`) is reported, not passed on',
  Stop: '`turn_end` only observes: a request to keep the agent going is reported, not followed',
  SubagentStop: '`subagent_complete` only observes: a request to keep the sub-agent going is reported, not followed',
  SessionStart: '`session_start` only observes: context the hook prints is not given to the model',
};
/** Handler keys each peer defines that Codewhale does not carry, and what that means. */
const DROPPED_KEYS: Readonly<Record<string, string>> = {
  statusMessage: 'Codewhale shows the hook\u2019s name instead',
  commandWindows: 'the same `command` runs on every platform',
  command_windows: 'the same `command` runs on every platform',
  visibilityHint: 'Codewhale has no such setting',
};
const HANDLER_KEYS = new Set(['type', 'command', 'timeout', 'async', ...Object.keys(DROPPED_KEYS)]);

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** `PreToolUse[0].hooks[1]`, `PreToolUse[0]`, `PreToolUse`, `hooks`. */
export function describePeerOrigin(o: PeerHookOrigin): string {
  if (o.event === null) return 'hooks';
  let s = o.event;
  if (o.group !== null) s += `[${o.group}]`;
  if (o.hook !== null) s += `.hooks[${o.hook}]`;
  return s;
}

/** How a peer reads a non-tool matcher against fixed values (`startup`, `resume`, …). */
function selectsValue(peer: PeerAgent, matcher: string, value: string): boolean | null {
  const reading = readMatcher(peer, matcher);
  if (reading.kind === 'all') return true;
  if (reading.kind === 'exact') return reading.names.includes(value);
  try {
    return new RegExp(reading.source).test(value);
  } catch {
    return null;
  }
}

function timeoutOf(value: unknown, peer: PeerAgent): { secs: number; note: string | null } | { problem: string } {
  if (value === undefined || value === null) return { secs: PEER_DEFAULT_TIMEOUT_SECS, note: null };
  const n = typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return { problem: '`timeout` must be a number of seconds' };
  if (n <= 0) {
    if (peer === 'codex' && n === 0) return { secs: 1, note: '`timeout = 0`: Codex runs it with 1 s, and so does this entry' };
    return { problem: '`timeout` must be a positive number of seconds' };
  }
  if (n > MAX_TIMEOUT_SECS) return { secs: MAX_TIMEOUT_SECS, note: `\`timeout\` ${n} s is longer than Codewhale applies; written as ${MAX_TIMEOUT_SECS} s` };
  const secs = Math.ceil(n);
  return { secs, note: secs === n ? null : `\`timeout\` ${n} s rounded up to whole seconds: ${secs} s` };
}

/**
 * Read the hooks of a peer's settings files (Claude Code's `settings.json`, Codex's
 * `config.toml` / `hooks.json`: the same `{ Event: [{ matcher, hooks: [{ type, command,
 * timeout }] }] }` shape) and translate each command hook into a Codewhale entry run under the
 * `claude-code` protocol, or say why it cannot be carried over: a prompt or agent hook, a
 * matcher no condition can say exactly, an event with no counterpart, a malformed entry. Pure
 * and deterministic: files in the order given, then hooks in file order.
 */
export function importPeerHooks(peer: PeerAgent, files: readonly PeerHooksFile[]): PeerImport {
  const entries: ImportedHook[] = [];
  const skipped: SkippedPeerHook[] = [];
  const label = PEER_LABEL[peer];

  for (const f of files) {
    const at = (event: string | null, matcher: string | null, group: number | null, hook: number | null): PeerHookOrigin => ({ file: f.file, event, matcher, group, hook });
    if (!isTable(f.document)) {
      skipped.push({ origin: at(null, null, null, null), reason: 'the file is not an object with a `hooks` table' });
      continue;
    }
    const hooks = f.document['hooks'];
    if (hooks === undefined) continue;
    if (!isTable(hooks)) {
      skipped.push({ origin: at(null, null, null, null), reason: '`hooks` is not an object of events' });
      continue;
    }
    const disabled = peer === 'claude-code' && f.document['disableAllHooks'] === true;

    for (const [eventName, groups] of Object.entries(hooks)) {
      // Codex keeps its own trust records for hooks in `[hooks.state]`; they are not hooks.
      if (peer === 'codex' && eventName === 'state') continue;
      if (!Array.isArray(groups)) {
        skipped.push({ origin: at(eventName, null, null, null), reason: `${code(eventName)} is not a list of matcher groups` });
        continue;
      }
      const event = peerToOurEvent(eventName);
      groups.forEach((group: unknown, gi: number) => {
        if (!isTable(group)) {
          skipped.push({ origin: at(eventName, null, gi, null), reason: 'the matcher group is not an object' });
          return;
        }
        const rawMatcher = group['matcher'];
        if (rawMatcher !== undefined && rawMatcher !== null && typeof rawMatcher !== 'string') {
          skipped.push({ origin: at(eventName, null, gi, null), reason: '`matcher` is not a string' });
          return;
        }
        const matcher = typeof rawMatcher === 'string' ? rawMatcher : null;
        const handlers = group['hooks'];
        if (!Array.isArray(handlers)) {
          skipped.push({ origin: at(eventName, matcher, gi, null), reason: '`hooks` in the matcher group is not a list' });
          return;
        }
        const skipAll = (reason: string): void => {
          handlers.forEach((_h: unknown, hi: number) => skipped.push({ origin: at(eventName, matcher, gi, hi), reason }));
        };
        if (disabled) return skipAll('the file sets `disableAllHooks`, so Claude Code does not run this hook');
        if (event === null) return skipAll(`${label}'s ${code(eventName)} has no Codewhale counterpart`);

        // The group's matcher, as a condition and notes, or why the whole group cannot be carried.
        let condition: HookCondition | null = null;
        const groupNotes: string[] = OBSERVER_NOTES[eventName] ? [OBSERVER_NOTES[eventName]] : [];
        if (TOOL_EVENTS.has(eventName)) {
          const t = translateToolMatcher(peer, matcher);
          if (!t.ok) return skipAll(t.reason);
          condition = t.condition;
          groupNotes.push(...t.notes);
        } else if (eventName === 'SessionStart' && !isMatchAll(matcher)) {
          const selected = SESSION_SOURCES.filter((s) => selectsValue(peer, matcher!, s));
          if (SESSION_SOURCES.some((s) => selectsValue(peer, matcher!, s) === null)) return skipAll('the matcher is not a valid regular expression');
          if (!selected.includes('startup')) {
            return skipAll(`the matcher selects ${selected.length ? selected.map(code).join(', ') : 'no'} session starts; Codewhale's \`session_start\` is the peer's \`startup\` only`);
          }
          const others = selected.filter((s) => s !== 'startup');
          if (others.length) groupNotes.push(`the matcher also selects ${others.map(code).join(', ')}, which Codewhale has no counterpart for: the hook runs when a session starts`);
        } else if (peer === 'claude-code' && CLAUDE_MATCHER_SUBJECT[eventName] !== undefined && !isMatchAll(matcher)) {
          return skipAll(`the matcher selects ${CLAUDE_MATCHER_SUBJECT[eventName]}, which a Codewhale condition cannot see`);
        } else if (!isMatchAll(matcher)) {
          groupNotes.push(`${label} ignores a matcher on ${code(eventName)}; so does this entry`);
        }

        handlers.forEach((h: unknown, hi: number) => {
          const origin = at(eventName, matcher, gi, hi);
          if (!isTable(h)) {
            skipped.push({ origin, reason: 'the hook is not an object' });
            return;
          }
          const type = h['type'];
          if (type !== 'command') {
            skipped.push({
              origin,
              reason: typeof type === 'string' ? `a ${code(type)} hook is not a command; Codewhale hooks run commands` : '`type` is missing (only `"command"` hooks can be carried over)',
            });
            return;
          }
          if (h['if'] !== undefined) {
            skipped.push({ origin, reason: 'its `if` filter has no Codewhale counterpart (without it the hook would run more often)' });
            return;
          }
          const command = h['command'];
          if (typeof command !== 'string' || command.trim() === '') {
            skipped.push({ origin, reason: '`command` is missing or empty' });
            return;
          }
          const t = timeoutOf(h['timeout'], peer);
          if ('problem' in t) {
            skipped.push({ origin, reason: t.problem });
            return;
          }
          const notes = [...groupNotes];
          if (t.note) notes.push(t.note);
          const background = h['async'] === true;
          if (background) notes.push('`async`: runs in the background (`background = true`), so it cannot steer');
          for (const key of Object.keys(h).sort()) {
            if (DROPPED_KEYS[key] !== undefined) notes.push(`${code(key)} is not carried over: ${DROPPED_KEYS[key]}`);
            else if (!HANDLER_KEYS.has(key)) notes.push(`${code(key)} is not carried over: Codewhale does not know it`);
          }
          // The name shows the matcher where it selects something (tool events, SessionStart).
          const shownMatcher = !isMatchAll(matcher) && (TOOL_EVENTS.has(eventName) || eventName === 'SessionStart') ? matcher! : null;
          const cps = shownMatcher === null ? [] : Array.from(shownMatcher);
          const shown = shownMatcher === null ? '' : ` ${cps.length > NAME_MAX_MATCHER_CHARS ? `${cps.slice(0, NAME_MAX_MATCHER_CHARS).join('')}…` : shownMatcher}`;
          const entry: ImportedHookEntry = {
            name: `${peer}: ${eventName}${shown}`,
            event,
            protocol: 'claude-code',
            command,
            timeout_secs: t.secs,
            ...(background ? { background: true as const } : {}),
            ...(condition ? { condition } : {}),
          };
          entries.push({ scope: f.scope, origin, entry, notes });
        });
      });
    }
  }
  return { entries, skipped };
}
