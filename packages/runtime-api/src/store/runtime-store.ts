import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { formatTimestamp } from '@codewhale/hooks-payloads';
import { snakeKeys } from '../http/wire-case.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import type {
  AlwaysChoice,
  ApprovalRecord,
  ApprovalScope,
  ApprovalStatus,
  ItemKind,
  ItemRecord,
  ItemStatus,
  StoredEvent,
  ThreadRecord,
  TurnRecord,
  TurnStatus,
  UserInputQuestionRecord,
  UserInputRecord,
  UserInputStatus,
  WritePreviewRecord,
} from './records.js';
import { loadSqlite } from './sqlite.js';

/** `FULL` fsyncs the write-ahead log on every commit; `NORMAL` only at checkpoints. */
export type SyncLevel = 'FULL' | 'NORMAL';

export interface RuntimeStoreOptions {
  /** Default `FULL`: a committed state change survives a power loss, not only a process crash. */
  readonly synchronous?: SyncLevel;
  /** Clock (tests). */
  readonly now?: () => number;
}

/** Why a store could not be opened. */
export class StoreError extends Error {
  readonly code: 'newer_schema' | 'open_failed' | 'corrupt';
  constructor(code: StoreError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
  static isInstance(e: unknown): e is StoreError {
    return e instanceof StoreError;
  }
}

/** SQLite's codes for a file that is not a database, or one whose pages are damaged. */
const CORRUPT_CODES = /^SQLITE_(CORRUPT|NOTADB)/;

/** True for an error that says the database file is damaged. */
export function isCorruption(e: unknown): boolean {
  return typeof (e as { code?: unknown })?.code === 'string' && CORRUPT_CODES.test((e as { code: string }).code);
}

/**
 * The error for a damaged database file: which file, what SQLite said, and what to do. Nothing
 * is repaired or replaced automatically: the file may be the only copy of the threads.
 */
export function corruptDatabaseError(path: string, cause: unknown): StoreError {
  const files = [path, `${path}-wal`, `${path}-shm`].join(' ');
  return new StoreError(
    'corrupt',
    `the runtime database ${path} is damaged (${(cause as Error).message}). Nothing was changed. ` +
      `To keep its threads, stop every codewhale serve on this home and try \`sqlite3 ${path} .recover | sqlite3 ${path}.recovered\`, then move ${path}.recovered into its place; ` +
      `to start afresh, move the files aside (${files}): the next start creates an empty database.`,
    { cause },
  );
}

/** Who settled an approval. */
export type ApprovalAnswerer = 'client' | 'timeout' | 'cancelled' | 'policy';

const APPROVAL_CAUSE: Record<ApprovalAnswerer, string> = {
  client: 'client',
  timeout: 'expired',
  cancelled: 'turn_interrupted',
  policy: 'auto_review',
};

export type CommitListener = (events: readonly StoredEvent[]) => void;

/** A fresh id: `<prefix>_` and 24 hex digits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** Item summaries are single-line previews of at most this many code points. */
export const SUMMARY_MAX_CHARS = 280;

export function summaryOf(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const points = Array.from(flat);
  return points.length <= SUMMARY_MAX_CHARS ? flat : `${points.slice(0, SUMMARY_MAX_CHARS - 1).join('')}…`;
}

/**
 * The database holds conversations: its directory is 0700 and the database, its WAL and its
 * shared-memory file are 0600 — created so (whatever the umask), and tightened when they
 * already exist (an older build, or a home directory made by hand).
 */
function privateFiles(path: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      chmodSync(f, 0o600);
    } catch {
      // not there
    }
  }
}

type Row = Record<string, unknown>;

const json = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));
const parse = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : null);

function threadFrom(r: Row): ThreadRecord {
  return {
    id: r.id as string,
    sessionId: (r.session_id as string | null) ?? null,
    workspace: r.workspace as string,
    mode: r.mode as string,
    posture: r.posture as string,
    model: (r.model as string | null) ?? null,
    activeTurnId: (r.active_turn_id as string | null) ?? null,
    conversation: parse(r.conversation),
    prunedThroughSeq: Number(r.pruned_through_seq),
    archivedAt: (r.archived_at as string | null) ?? null,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

function turnFrom(r: Row): TurnRecord {
  return {
    id: r.id as string,
    threadId: r.thread_id as string,
    status: r.status as TurnStatus,
    prompt: r.prompt as string,
    mode: r.mode as string,
    posture: r.posture as string,
    model: (r.model as string | null) ?? null,
    error: (r.error as string | null) ?? null,
    errorCategory: (r.error_category as string | null) ?? null,
    usage: parse(r.usage),
    createdAt: r.created_at as string,
    completedAt: (r.completed_at as string | null) ?? null,
  };
}

function itemFrom(r: Row): ItemRecord {
  return {
    id: r.id as string,
    threadId: r.thread_id as string,
    turnId: r.turn_id as string,
    kind: r.kind as ItemKind,
    status: r.status as ItemStatus,
    summary: r.summary as string,
    detail: (r.detail as string | null) ?? null,
    metadata: parse(r.metadata),
    decision: parse(r.decision),
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
  };
}

function approvalFrom(r: Row): ApprovalRecord {
  return {
    id: r.id as string,
    threadId: r.thread_id as string,
    turnId: r.turn_id as string,
    itemId: (r.item_id as string | null) ?? null,
    tool: r.tool as string,
    reason: r.reason as string,
    summary: r.summary as string,
    hookName: (r.hook_name as string | null) ?? null,
    hookReason: (r.hook_reason as string | null) ?? null,
    status: r.status as ApprovalStatus,
    decision: (r.decision as 'allow' | 'deny' | null) ?? null,
    remember: Number(r.remember) === 1,
    scope: (r.scope as ApprovalScope | null) ?? null,
    always: r.always_rule ? (JSON.parse(r.always_rule as string) as AlwaysChoice) : null,
    preview: r.preview ? (JSON.parse(r.preview as string) as WritePreviewRecord) : null,
    requestedAt: r.requested_at as string,
    expiresAt: r.expires_at as string,
    decidedAt: (r.decided_at as string | null) ?? null,
  };
}

function userInputFrom(r: Row): UserInputRecord {
  return {
    id: r.id as string,
    threadId: r.thread_id as string,
    turnId: r.turn_id as string,
    itemId: (r.item_id as string | null) ?? null,
    questions: parse(r.questions) as UserInputQuestionRecord[],
    status: r.status as UserInputStatus,
    answers: parse(r.answers) as UserInputRecord['answers'],
    requestedAt: r.requested_at as string,
    expiresAt: r.expires_at as string,
    answeredAt: (r.answered_at as string | null) ?? null,
  };
}

function eventFrom(r: Row): StoredEvent {
  return {
    seq: Number(r.seq),
    threadId: r.thread_id as string,
    turnId: (r.turn_id as string | null) ?? null,
    itemId: (r.item_id as string | null) ?? null,
    event: r.event as string,
    payload: parse(r.payload) as Record<string, unknown>,
    createdAt: r.created_at as string,
  };
}

/** One page of a list: the rows and the key to continue after (`null` on the last page). */
export interface Page<T> {
  readonly rows: T[];
  readonly next: number | null;
}

/** `limit + 1` rows asked for: the extra one only says there is another page. */
function page<T>(rows: Row[], limit: number, from: (r: Row) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { rows: kept.map(from), next: more ? Number(kept[kept.length - 1]!._key) : null };
}

/** What a state change appends besides its rows. */
interface PendingEvent {
  readonly threadId: string;
  readonly turnId: string | null;
  readonly itemId: string | null;
  readonly event: string;
  readonly payload: Record<string, unknown>;
}

/**
 * The Runtime API's durable state in one SQLite file (WAL mode): threads, turns, items,
 * approvals, and the event log. Every state change is one transaction that also appends the
 * events describing it, so the log and the state never disagree; `seq` is global, monotonic
 * and never reused. Listeners hear about events only after their commit.
 */
export class RuntimeStore {
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #listeners = new Set<CommitListener>();
  readonly synchronous: SyncLevel;

  private constructor(db: Database.Database, options: RuntimeStoreOptions) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.synchronous = options.synchronous ?? 'FULL';
  }

  /**
   * Open (creating and migrating) the database at `path` (`:memory:` for tests). Throws a
   * `SqliteUnavailableError` when better-sqlite3 is not installed or cannot load.
   */
  static open(path: string, options: RuntimeStoreOptions = {}): RuntimeStore {
    const Sqlite = loadSqlite();
    let db: Database.Database;
    try {
      if (path !== ':memory:') privateFiles(path);
      db = new Sqlite(path);
    } catch (e) {
      if (isCorruption(e)) throw corruptDatabaseError(path, e);
      throw new StoreError('open_failed', `cannot open the runtime database ${path}: ${(e as Error).message}`, { cause: e });
    }
    try {
      db.pragma('journal_mode = WAL');
      // SQLite gives the WAL and shared-memory files the database file's mode; make sure anyway.
      if (path !== ':memory:') privateFiles(path);
      db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
      migrate(db, path);
    } catch (e) {
      db.close();
      throw isCorruption(e) ? corruptDatabaseError(path, e) : e;
    }
    return new RuntimeStore(db, options);
  }

  /** The schema version of the open database. */
  schemaVersion(): number {
    return Number(this.#db.pragma('user_version', { simple: true }));
  }

  onCommit(listener: CommitListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  get isOpen(): boolean {
    return this.#db.open;
  }

  readonly #statements = new Map<string, Database.Statement>();

  /** A prepared statement, compiled once per SQL text. */
  #stmt(sql: string): Database.Statement {
    let st = this.#statements.get(sql);
    if (!st) {
      st = this.#db.prepare(sql);
      this.#statements.set(sql, st);
    }
    return st;
  }

  #time(): string {
    return formatTimestamp(this.#now());
  }

  /** Run `fn` in one transaction; the events it queued are appended in it and published after it. */
  #change<T>(fn: (emit: (e: PendingEvent) => void, at: string) => T): { value: T; events: StoredEvent[] } {
    const at = this.#time();
    const insert = this.#stmt('INSERT INTO events (thread_id, turn_id, item_id, event, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const run = this.#db.transaction(() => {
      const queued: PendingEvent[] = [];
      const value = fn((e) => queued.push(e), at);
      const events = queued.map((e) => {
        const info = insert.run(e.threadId, e.turnId, e.itemId, e.event, JSON.stringify(e.payload), at);
        return { seq: Number(info.lastInsertRowid), threadId: e.threadId, turnId: e.turnId, itemId: e.itemId, event: e.event, payload: e.payload, createdAt: at };
      });
      return { value, events };
    });
    const result = run();
    if (result.events.length > 0) for (const l of this.#listeners) l(result.events);
    return result;
  }

  // ---- threads ----

  createThread(fields: { workspace: string; mode: string; posture: string; model: string | null; sessionId: string | null }): ThreadRecord {
    const id = newId('thr');
    return this.#change((emit, at) => {
      this.#db
        .prepare('INSERT INTO threads (id, session_id, workspace, mode, posture, model, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, fields.sessionId, fields.workspace, fields.mode, fields.posture, fields.model, 'idle', at, at);
      const thread = this.getThread(id)!;
      emit({ threadId: id, turnId: null, itemId: null, event: 'thread.started', payload: { thread: threadPayload(thread) } });
      return thread;
    }).value;
  }

  getThread(id: string): ThreadRecord | null {
    const r = this.#stmt('SELECT * FROM threads WHERE id = ?').get(id) as Row | undefined;
    return r ? threadFrom(r) : null;
  }

  listThreads(): ThreadRecord[] {
    return (this.#stmt('SELECT * FROM threads ORDER BY created_at DESC, id').all() as Row[]).map(threadFrom);
  }

  /**
   * One page of threads, newest first (`archived`: the archived ones, else the others). Keyset
   * pagination on the row id: a thread created or deleted between two pages moves no other
   * thread across the page boundary, so nothing is skipped or repeated.
   */
  threadsPage(options: { after: number | null; limit: number; archived: boolean }): Page<ThreadRecord> {
    const rows = this.#stmt(`SELECT rowid AS _key, * FROM threads WHERE (archived_at IS NOT NULL) = ? AND (? IS NULL OR rowid < ?) ORDER BY rowid DESC LIMIT ?`).all(
      options.archived ? 1 : 0,
      options.after,
      options.after,
      options.limit + 1,
    ) as Row[];
    return page(rows, options.limit, threadFrom);
  }

  /** Archive (hide from the default list) or unarchive an idle thread (`thread.archived` / `thread.unarchived`). */
  setArchived(id: string, archived: boolean): ThreadRecord | 'not_found' | 'busy' {
    return this.#change((emit, at) => {
      const t = this.getThread(id);
      if (!t) return 'not_found' as const;
      if (t.activeTurnId !== null) return 'busy' as const;
      if ((t.archivedAt !== null) === archived) return t;
      this.#stmt('UPDATE threads SET archived_at = ?, updated_at = ? WHERE id = ?').run(archived ? at : null, at, id);
      const thread = this.getThread(id)!;
      emit({ threadId: id, turnId: null, itemId: null, event: archived ? 'thread.archived' : 'thread.unarchived', payload: { thread: threadPayload(thread) } });
      return thread;
    }).value;
  }

  /**
   * Delete an idle thread and everything of it (turns, items, approvals, questions, its
   * conversation and its events), leaving one `thread.deleted` event so every client hears of it.
   */
  deleteThread(id: string): 'deleted' | 'not_found' | 'busy' {
    return this.#change((emit) => {
      const t = this.getThread(id);
      if (!t) return 'not_found' as const;
      if (t.activeTurnId !== null) return 'busy' as const;
      for (const table of ['events', 'conversation_log', 'user_inputs', 'approvals', 'items', 'turns']) this.#stmt(`DELETE FROM ${table} WHERE thread_id = ?`).run(id);
      this.#stmt('DELETE FROM threads WHERE id = ?').run(id);
      emit({ threadId: id, turnId: null, itemId: null, event: 'thread.deleted', payload: { thread_id: id } });
      return 'deleted' as const;
    }).value;
  }

  /** Remember the session id a thread's session minted (kept across restarts). */
  setThreadSession(id: string, sessionId: string | null): void {
    this.#stmt('UPDATE threads SET session_id = ?, updated_at = ? WHERE id = ?').run(sessionId, this.#time(), id);
  }

  // ---- turns ----

  /** A new running turn with its user message, in one transaction (`turn.started`, `item.completed`); `null` when the thread is missing or busy. */
  startTurn(threadId: string, fields: { prompt: string; mode: string; posture: string; model: string | null }): { turn: TurnRecord; userItem: ItemRecord } | null {
    const turnId = newId('turn');
    const itemId = newId('item');
    return this.#change((emit, at) => {
      // Checked inside the transaction: two requests can never both start a turn.
      const thread = this.getThread(threadId);
      if (!thread || thread.activeTurnId !== null) return null;
      this.#db
        .prepare('INSERT INTO turns (id, thread_id, status, prompt, mode, posture, model, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(turnId, threadId, 'in_progress', fields.prompt, fields.mode, fields.posture, fields.model, at);
      this.#db
        .prepare('UPDATE threads SET status = ?, active_turn_id = ?, mode = ?, posture = ?, model = ?, updated_at = ? WHERE id = ?')
        .run('active', turnId, fields.mode, fields.posture, fields.model, at, threadId);
      this.#insertItem(itemId, threadId, turnId, 'user_message', 'completed', summaryOf(fields.prompt), fields.prompt, null, at);
      const turn = this.getTurn(turnId)!;
      const userItem = this.getItem(itemId)!;
      emit({ threadId, turnId, itemId: null, event: 'turn.started', payload: { turn: turnPayload(turn) } });
      emit({ threadId, turnId, itemId, event: 'item.completed', payload: { item: itemPayload(userItem) } });
      return { turn, userItem };
    }).value;
  }

  getTurn(id: string): TurnRecord | null {
    const r = this.#stmt('SELECT * FROM turns WHERE id = ?').get(id) as Row | undefined;
    return r ? turnFrom(r) : null;
  }

  listTurns(threadId: string): TurnRecord[] {
    return (this.#stmt('SELECT * FROM turns WHERE thread_id = ? ORDER BY created_at, rowid').all(threadId) as Row[]).map(turnFrom);
  }

  /** One page of a thread's turns, oldest first. */
  turnsPage(threadId: string, options: { after: number | null; limit: number }): Page<TurnRecord> {
    const rows = this.#stmt('SELECT rowid AS _key, * FROM turns WHERE thread_id = ? AND rowid > ? ORDER BY rowid LIMIT ?').all(threadId, options.after ?? 0, options.limit + 1) as Row[];
    return page(rows, options.limit, turnFrom);
  }

  /**
   * End a turn: its status, the thread's stored conversation (to resume after a restart), and
   * `turn.completed`; still-open items of the turn end as `interrupted`/`failed`.
   */
  completeTurn(
    turnId: string,
    fields: { status: Exclude<TurnStatus, 'in_progress'>; error: string | null; errorCategory: string | null; usage: unknown; conversation?: unknown; sessionId?: string | null },
  ): TurnRecord | null {
    return this.#change((emit, at) => {
      const turn = this.getTurn(turnId);
      if (turn?.status !== 'in_progress') return null;
      this.#db
        .prepare('UPDATE turns SET status = ?, error = ?, error_category = ?, usage = ?, completed_at = ? WHERE id = ?')
        .run(fields.status, fields.error, fields.errorCategory, json(fields.usage), at, turnId);
      this.#closeOpenItems(turn.threadId, turnId, fields.status === 'completed' ? 'completed' : 'interrupted', at, emit);
      this.#expireTurnApprovals(turnId, at, emit, 'turn_ended');
      this.#expireTurnUserInputs(turnId, at, emit, 'turn_ended');
      const sets = ['status = ?', 'active_turn_id = NULL', 'updated_at = ?'];
      const args: unknown[] = ['idle', at];
      if (fields.conversation !== undefined) {
        sets.push('conversation = ?');
        args.push(json(fields.conversation));
      }
      if (fields.sessionId !== undefined) {
        sets.push('session_id = ?');
        args.push(fields.sessionId);
      }
      this.#stmt(`UPDATE threads SET ${sets.join(', ')} WHERE id = ? AND active_turn_id = ?`).run(...args, turn.threadId, turnId);
      const done = this.getTurn(turnId)!;
      emit({ threadId: turn.threadId, turnId, itemId: null, event: 'turn.completed', payload: { turn: turnPayload(done) } });
      return done;
    }).value;
  }

  // ---- the conversation journal ----

  /**
   * Commit messages that joined a running turn's history (`from` is the index of the first in
   * the session's history). One transaction, no event: clients follow items, this is what the
   * model is given back after a crash. Replaces what a previous write put at the same index.
   */
  journalConversation(threadId: string, from: number, messages: readonly unknown[]): void {
    if (messages.length === 0) return;
    const put = this.#stmt('INSERT OR REPLACE INTO conversation_log (thread_id, ordinal, message) VALUES (?, ?, ?)');
    this.#db.transaction(() => {
      messages.forEach((m, i) => put.run(threadId, from + i, JSON.stringify(m)));
    })();
  }

  /**
   * Make the thread's log exactly `messages` (and its stored conversation a head without
   * history, the log being the history): done when a session is opened from what was stored.
   */
  replaceConversationLog(threadId: string, messages: readonly unknown[]): void {
    const put = this.#stmt('INSERT OR REPLACE INTO conversation_log (thread_id, ordinal, message) VALUES (?, ?, ?)');
    this.#db.transaction(() => {
      this.#stmt('DELETE FROM conversation_log WHERE thread_id = ? AND ordinal >= ?').run(threadId, messages.length);
      messages.forEach((m, i) => put.run(threadId, i, JSON.stringify(m)));
      const t = this.getThread(threadId);
      const head = t?.conversation as { history?: unknown[] } | null | undefined;
      if (head && Array.isArray(head.history) && head.history.length > 0) {
        this.#stmt('UPDATE threads SET conversation = ? WHERE id = ?').run(JSON.stringify({ ...head, history: [] }), threadId);
      }
    })();
  }

  /** The thread's conversation log (its history, or what joined it since the stored head), in order. */
  conversationJournal(threadId: string): { ordinal: number; message: unknown }[] {
    return (this.#stmt('SELECT ordinal, message FROM conversation_log WHERE thread_id = ? ORDER BY ordinal').all(threadId) as Row[]).map((r) => ({
      ordinal: Number(r.ordinal),
      message: parse(r.message),
    }));
  }

  // ---- items ----

  #insertItem(id: string, threadId: string, turnId: string, kind: ItemKind, status: ItemStatus, summary: string, detail: string | null, metadata: unknown, at: string): void {
    const ordinal = Number((this.#stmt('SELECT COALESCE(MAX(ordinal), 0) + 1 AS n FROM items WHERE thread_id = ?').get(threadId) as Row).n);
    this.#db
      .prepare('INSERT INTO items (id, thread_id, turn_id, kind, status, summary, detail, metadata, ordinal, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, threadId, turnId, kind, status, summary, detail, json(metadata), ordinal, at, at);
  }

  /** Open an item (`item.started`). */
  startItem(threadId: string, turnId: string, kind: ItemKind, fields: { summary: string; detail?: string | null; metadata?: unknown }): ItemRecord {
    const id = newId('item');
    return this.#change((emit, at) => {
      this.#insertItem(id, threadId, turnId, kind, 'in_progress', summaryOf(fields.summary), fields.detail ?? null, fields.metadata ?? null, at);
      const item = this.getItem(id)!;
      emit({ threadId, turnId, itemId: id, event: 'item.started', payload: { item: itemPayload(item) } });
      return item;
    }).value;
  }

  /** Append streamed text to an open item (`item.delta`). */
  appendDelta(itemId: string, delta: string): void {
    this.#change((emit, at) => {
      const item = this.getItem(itemId);
      if (item?.status !== 'in_progress') return;
      const detail = (item.detail ?? '') + delta;
      this.#stmt('UPDATE items SET detail = ?, summary = ?, updated_at = ? WHERE id = ?').run(detail, summaryOf(detail), at, itemId);
      emit({ threadId: item.threadId, turnId: item.turnId, itemId, event: 'item.delta', payload: { kind: item.kind, delta } });
    });
  }

  /** Close an item (`item.completed`, or `item.failed` for a failed status). */
  completeItem(itemId: string, fields: { status: Exclude<ItemStatus, 'in_progress'>; summary?: string; detail?: string | null; metadata?: unknown; decision?: unknown }): ItemRecord | null {
    return this.#change((emit, at) => {
      const item = this.getItem(itemId);
      if (item?.status !== 'in_progress') return null;
      this.#db
        .prepare('UPDATE items SET status = ?, summary = ?, detail = ?, metadata = ?, decision = ?, updated_at = ? WHERE id = ?')
        .run(
          fields.status,
          fields.summary !== undefined ? summaryOf(fields.summary) : item.summary,
          fields.detail !== undefined ? fields.detail : item.detail,
          fields.metadata !== undefined ? json(fields.metadata) : json(item.metadata),
          fields.decision !== undefined ? json(fields.decision) : json(item.decision),
          at,
          itemId,
        );
      const done = this.getItem(itemId)!;
      emit({ threadId: done.threadId, turnId: done.turnId, itemId, event: fields.status === 'failed' ? 'item.failed' : 'item.completed', payload: { item: itemPayload(done) } });
      return done;
    }).value;
  }

  /** A finished item in one step (`item.completed` / `item.failed`), e.g. an error. */
  addItem(threadId: string, turnId: string, kind: ItemKind, fields: { status: Exclude<ItemStatus, 'in_progress'>; summary: string; detail?: string | null; metadata?: unknown }): ItemRecord {
    const id = newId('item');
    return this.#change((emit, at) => {
      this.#insertItem(id, threadId, turnId, kind, fields.status, summaryOf(fields.summary), fields.detail ?? null, fields.metadata ?? null, at);
      const item = this.getItem(id)!;
      emit({ threadId, turnId, itemId: id, event: fields.status === 'failed' ? 'item.failed' : 'item.completed', payload: { item: itemPayload(item) } });
      return item;
    }).value;
  }

  getItem(id: string): ItemRecord | null {
    const r = this.#stmt('SELECT * FROM items WHERE id = ?').get(id) as Row | undefined;
    return r ? itemFrom(r) : null;
  }

  /** One page of a thread's items, oldest first. */
  itemsPage(threadId: string, options: { after: number | null; limit: number }): Page<ItemRecord> {
    const rows = this.#stmt('SELECT ordinal AS _key, * FROM items WHERE thread_id = ? AND ordinal > ? ORDER BY ordinal LIMIT ?').all(threadId, options.after ?? 0, options.limit + 1) as Row[];
    return page(rows, options.limit, itemFrom);
  }

  listItems(threadId: string, turnId?: string): ItemRecord[] {
    const rows = turnId
      ? this.#stmt('SELECT * FROM items WHERE thread_id = ? AND turn_id = ? ORDER BY ordinal').all(threadId, turnId)
      : this.#stmt('SELECT * FROM items WHERE thread_id = ? ORDER BY ordinal').all(threadId);
    return (rows as Row[]).map(itemFrom);
  }

  #closeOpenItems(threadId: string, turnId: string, status: 'completed' | 'interrupted', at: string, emit: (e: PendingEvent) => void): void {
    const open = (this.#stmt("SELECT * FROM items WHERE turn_id = ? AND status = 'in_progress' ORDER BY ordinal").all(turnId) as Row[]).map(itemFrom);
    for (const item of open) {
      this.#stmt('UPDATE items SET status = ?, updated_at = ? WHERE id = ?').run(status, at, item.id);
      emit({ threadId, turnId, itemId: item.id, event: 'item.completed', payload: { item: itemPayload(this.getItem(item.id)!) } });
    }
  }

  // ---- approvals ----

  /** A durable pending approval (`approval.required`). */
  createApproval(fields: {
    threadId: string;
    turnId: string;
    itemId: string | null;
    tool: string;
    reason: string;
    summary: string;
    hookName?: string | null;
    hookReason?: string | null;
    always?: AlwaysChoice | null;
    preview?: WritePreviewRecord | null;
    timeoutMs: number;
  }): ApprovalRecord {
    const id = newId('appr');
    return this.#change((emit, at) => {
      const expires = formatTimestamp(this.#now() + fields.timeoutMs);
      this.#db
        .prepare(
          'INSERT INTO approvals (id, thread_id, turn_id, item_id, tool, reason, summary, hook_name, hook_reason, always_rule, preview, status, requested_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          id,
          fields.threadId,
          fields.turnId,
          fields.itemId,
          fields.tool,
          fields.reason,
          fields.summary,
          fields.hookName ?? null,
          fields.hookReason ?? null,
          fields.always ? JSON.stringify(fields.always) : null,
          fields.preview ? JSON.stringify(fields.preview) : null,
          'pending',
          at,
          expires,
        );
      const approval = this.getApproval(id)!;
      emit({ threadId: fields.threadId, turnId: fields.turnId, itemId: fields.itemId, event: 'approval.required', payload: { approval: approvalPayload(approval) } });
      return approval;
    }).value;
  }

  getApproval(id: string): ApprovalRecord | null {
    const r = this.#stmt('SELECT * FROM approvals WHERE id = ?').get(id) as Row | undefined;
    return r ? approvalFrom(r) : null;
  }

  /** One page of approvals across threads (or of one), oldest first, optionally of one status. */
  approvalsPage(options: { after: number | null; limit: number; status?: ApprovalStatus; threadId?: string }): Page<ApprovalRecord> {
    const rows = this.#stmt('SELECT rowid AS _key, * FROM approvals WHERE rowid > ? AND (? IS NULL OR status = ?) AND (? IS NULL OR thread_id = ?) ORDER BY rowid LIMIT ?').all(
      options.after ?? 0,
      options.status ?? null,
      options.status ?? null,
      options.threadId ?? null,
      options.threadId ?? null,
      options.limit + 1,
    ) as Row[];
    return page(rows, options.limit, approvalFrom);
  }

  pendingApprovals(threadId?: string): ApprovalRecord[] {
    const rows = threadId
      ? this.#stmt("SELECT * FROM approvals WHERE status = 'pending' AND thread_id = ? ORDER BY requested_at, rowid").all(threadId)
      : this.#stmt("SELECT * FROM approvals WHERE status = 'pending' ORDER BY requested_at, rowid").all();
    return (rows as Row[]).map(approvalFrom);
  }

  /**
   * Answer a pending approval: `approval.decided` for a client's answer, `approval.timeout`
   * (a denial) when it expired. `not_found` / `already_decided` change nothing.
   */
  decideApproval(
    id: string,
    answer: { decision: 'allow' | 'deny'; remember: boolean; by: ApprovalAnswerer; scope?: ApprovalScope },
  ): { ok: true; approval: ApprovalRecord } | { ok: false; reason: 'not_found' | 'already_decided'; approval: ApprovalRecord | null } {
    return this.#change((emit, at) => {
      const current = this.getApproval(id);
      if (!current) return { ok: false as const, reason: 'not_found' as const, approval: null };
      if (current.status !== 'pending') return { ok: false as const, reason: 'already_decided' as const, approval: current };
      // Only a client decides freely; a timeout, a cancelled turn and the Auto-Review policy deny.
      const status: ApprovalStatus = answer.by === 'client' || answer.by === 'policy' ? 'decided' : 'expired';
      const decision = answer.by === 'client' ? answer.decision : 'deny';
      const remember = answer.remember && answer.by === 'client';
      // The scope of an allow: what the client chose (`remember` alone is the session).
      const scope: ApprovalScope | null = decision === 'allow' ? (answer.scope ?? (remember ? 'session' : 'once')) : null;
      this.#db.prepare('UPDATE approvals SET status = ?, decision = ?, remember = ?, scope = ?, decided_at = ? WHERE id = ?').run(status, decision, remember ? 1 : 0, scope, at, id);
      const approval = this.getApproval(id)!;
      emit({
        threadId: approval.threadId,
        turnId: approval.turnId,
        itemId: approval.itemId,
        event: answer.by === 'timeout' ? 'approval.timeout' : 'approval.decided',
        payload: { approval: approvalPayload(approval), cause: APPROVAL_CAUSE[answer.by] },
      });
      return { ok: true as const, approval };
    }).value;
  }

  // ---- questions (request_user_input) ----

  /** Durable pending questions (`user_input.required`). */
  createUserInput(fields: { threadId: string; turnId: string; itemId: string | null; questions: readonly UserInputQuestionRecord[]; timeoutMs: number }): UserInputRecord {
    const id = newId('uin');
    return this.#change((emit, at) => {
      this.#stmt('INSERT INTO user_inputs (id, thread_id, turn_id, item_id, questions, status, requested_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
        id,
        fields.threadId,
        fields.turnId,
        fields.itemId,
        JSON.stringify(fields.questions),
        'pending',
        at,
        formatTimestamp(this.#now() + fields.timeoutMs),
      );
      const input = this.getUserInput(id)!;
      emit({ threadId: fields.threadId, turnId: fields.turnId, itemId: fields.itemId, event: 'user_input.required', payload: { user_input: userInputPayload(input) } });
      return input;
    }).value;
  }

  getUserInput(id: string): UserInputRecord | null {
    const r = this.#stmt('SELECT * FROM user_inputs WHERE id = ?').get(id) as Row | undefined;
    return r ? userInputFrom(r) : null;
  }

  /** One page of questions across threads (or of one), oldest first, optionally of one status. */
  userInputsPage(options: { after: number | null; limit: number; status?: UserInputStatus; threadId?: string }): Page<UserInputRecord> {
    const rows = this.#stmt('SELECT rowid AS _key, * FROM user_inputs WHERE rowid > ? AND (? IS NULL OR status = ?) AND (? IS NULL OR thread_id = ?) ORDER BY rowid LIMIT ?').all(
      options.after ?? 0,
      options.status ?? null,
      options.status ?? null,
      options.threadId ?? null,
      options.threadId ?? null,
      options.limit + 1,
    ) as Row[];
    return page(rows, options.limit, userInputFrom);
  }

  /**
   * Settle pending questions: a client's answers (`user_input.answered`), or nobody's
   * (`user_input.timeout`: expired, or the turn ended first). Anything but pending changes nothing.
   */
  settleUserInput(
    id: string,
    outcome: { answers: UserInputRecord['answers'] } | { expired: 'expired' | 'turn_ended' },
  ): { ok: true; input: UserInputRecord } | { ok: false; reason: 'not_found' | 'already_settled'; input: UserInputRecord | null } {
    return this.#change((emit, at) => {
      const current = this.getUserInput(id);
      if (!current) return { ok: false as const, reason: 'not_found' as const, input: null };
      if (current.status !== 'pending') return { ok: false as const, reason: 'already_settled' as const, input: current };
      const answered = 'answers' in outcome;
      this.#stmt('UPDATE user_inputs SET status = ?, answers = ?, answered_at = ? WHERE id = ?').run(answered ? 'answered' : 'expired', answered ? json(outcome.answers) : null, at, id);
      const input = this.getUserInput(id)!;
      emit({
        threadId: input.threadId,
        turnId: input.turnId,
        itemId: input.itemId,
        event: answered ? 'user_input.answered' : 'user_input.timeout',
        payload: { user_input: userInputPayload(input), cause: answered ? 'client' : outcome.expired },
      });
      return { ok: true as const, input };
    }).value;
  }

  #expireTurnUserInputs(turnId: string | null, at: string, emit: (e: PendingEvent) => void, cause: 'turn_ended' | 'server_restart'): number {
    const pending = (
      turnId === null ? this.#stmt("SELECT * FROM user_inputs WHERE status = 'pending'").all() : this.#stmt("SELECT * FROM user_inputs WHERE turn_id = ? AND status = 'pending'").all(turnId)
    ) as Row[];
    for (const r of pending.map(userInputFrom)) {
      this.#stmt("UPDATE user_inputs SET status = 'expired', answered_at = ? WHERE id = ?").run(at, r.id);
      emit({ threadId: r.threadId, turnId: r.turnId, itemId: r.itemId, event: 'user_input.timeout', payload: { user_input: userInputPayload(this.getUserInput(r.id)!), cause } });
    }
    return pending.length;
  }

  #expireTurnApprovals(turnId: string, at: string, emit: (e: PendingEvent) => void, cause: 'turn_ended' | 'server_restart'): void {
    const pending = (this.#stmt("SELECT * FROM approvals WHERE turn_id = ? AND status = 'pending'").all(turnId) as Row[]).map(approvalFrom);
    for (const a of pending) {
      this.#stmt("UPDATE approvals SET status = 'expired', decision = 'deny', decided_at = ? WHERE id = ?").run(at, a.id);
      emit({ threadId: a.threadId, turnId: a.turnId, itemId: a.itemId, event: 'approval.timeout', payload: { approval: approvalPayload(this.getApproval(a.id)!), cause } });
    }
  }

  // ---- recovery ----

  /**
   * After a restart nothing is running: every in-flight turn becomes `interrupted` (its open
   * items too) and every pending approval expires as a denial — each with its event.
   */
  recover(): { interruptedTurns: number; expiredApprovals: number } {
    return this.#change((emit, at) => {
      const approvals = this.pendingApprovals();
      for (const a of approvals) {
        this.#stmt("UPDATE approvals SET status = 'expired', decision = 'deny', decided_at = ? WHERE id = ?").run(at, a.id);
        emit({ threadId: a.threadId, turnId: a.turnId, itemId: a.itemId, event: 'approval.timeout', payload: { approval: approvalPayload(this.getApproval(a.id)!), cause: 'server_restart' } });
      }
      this.#expireTurnUserInputs(null, at, emit, 'server_restart');
      const turns = (this.#stmt("SELECT * FROM turns WHERE status = 'in_progress' ORDER BY created_at").all() as Row[]).map(turnFrom);
      for (const t of turns) {
        this.#stmt("UPDATE turns SET status = 'interrupted', error = ?, completed_at = ? WHERE id = ?").run('the server stopped during the turn', at, t.id);
        this.#closeOpenItems(t.threadId, t.id, 'interrupted', at, emit);
        const done = this.getTurn(t.id)!;
        emit({ threadId: t.threadId, turnId: t.id, itemId: null, event: 'turn.completed', payload: { turn: turnPayload(done), cause: 'server_restart' } });
      }
      this.#stmt("UPDATE threads SET status = 'idle', active_turn_id = NULL WHERE active_turn_id IS NOT NULL").run();
      return { interruptedTurns: turns.length, expiredApprovals: approvals.length };
    }).value;
  }

  // ---- events ----

  /** The highest seq ever assigned (0 when none). */
  headSeq(): number {
    const r = this.#stmt("SELECT seq FROM sqlite_sequence WHERE name = 'events'").get() as Row | undefined;
    return r ? Number(r.seq) : 0;
  }

  /** A thread's events (`null`: every thread's) after `sinceSeq`, oldest first, at most `limit`. */
  eventsSince(threadId: string | null, sinceSeq: number, limit = 1_000): StoredEvent[] {
    const rows =
      threadId === null
        ? this.#stmt('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?').all(sinceSeq, limit)
        : this.#stmt('SELECT * FROM events WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(threadId, sinceSeq, limit);
    return (rows as Row[]).map(eventFrom);
  }

  /**
   * The highest seq pruned from any thread's events (0 when none): a global cursor below it
   * may have missed events. (A deleted thread's events are gone on purpose: `thread.deleted`
   * says so.)
   */
  prunedThroughSeq(): number {
    return Number((this.#stmt('SELECT COALESCE(MAX(pruned_through_seq), 0) AS n FROM threads').get() as Row).n);
  }

  /**
   * Retention: delete every event created before `maxAgeMs` ago, and keep at most `keepPerThread`
   * per thread. As with {@link pruneEvents}, each thread remembers the highest pruned seq, so a
   * client whose cursor is older gets `stale_cursor`, never a silent gap. Items, turns and
   * threads are kept: they are the record; events are how clients follow it.
   */
  applyRetention(policy: { maxAgeMs: number; keepPerThread: number }): number {
    const cutoff = formatTimestamp(this.#now() - policy.maxAgeMs);
    let removed = this.#change(() => {
      let n = 0;
      const threads = this.#stmt('SELECT thread_id, MAX(seq) AS cut FROM events WHERE created_at < ? GROUP BY thread_id').all(cutoff) as Row[];
      for (const t of threads) {
        n += this.#stmt('DELETE FROM events WHERE thread_id = ? AND seq <= ?').run(t.thread_id, t.cut).changes;
        this.#stmt('UPDATE threads SET pruned_through_seq = MAX(pruned_through_seq, ?) WHERE id = ?').run(t.cut, t.thread_id);
      }
      return n;
    }).value;
    removed += this.pruneEvents(policy.keepPerThread);
    return removed;
  }

  /**
   * Keep at most `keep` events per thread; older ones are deleted and the thread remembers the
   * highest pruned seq, so a cursor before it is answered with `stale_cursor`, never a gap.
   */
  pruneEvents(keep: number): number {
    return this.#change(() => {
      let removed = 0;
      const threads = this.#stmt('SELECT thread_id, COUNT(*) AS n FROM events GROUP BY thread_id HAVING n > ?').all(keep) as Row[];
      for (const t of threads) {
        const cut = this.#stmt('SELECT seq FROM events WHERE thread_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?').get(t.thread_id, keep) as Row | undefined;
        if (!cut) continue;
        const info = this.#stmt('DELETE FROM events WHERE thread_id = ? AND seq <= ?').run(t.thread_id, cut.seq);
        this.#stmt('UPDATE threads SET pruned_through_seq = MAX(pruned_through_seq, ?) WHERE id = ?').run(cut.seq, t.thread_id);
        removed += info.changes;
      }
      return removed;
    }).value;
  }
}

function migrate(db: Database.Database, path: string): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > SCHEMA_VERSION) {
    throw new StoreError('newer_schema', `the runtime database ${path} has schema version ${current}, newer than this build understands (${SCHEMA_VERSION})`);
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

// ---- wire shapes (snake_case), shared by events and routes ----

export function threadPayload(t: ThreadRecord, extra: { status?: string; pendingApprovals?: readonly ApprovalRecord[] } = {}): Record<string, unknown> {
  return {
    id: t.id,
    session_id: t.sessionId,
    workspace: t.workspace,
    mode: t.mode,
    posture: t.posture,
    model: t.model,
    status: extra.status ?? (t.activeTurnId ? 'active' : 'idle'),
    active_turn_id: t.activeTurnId,
    archived_at: t.archivedAt,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    ...(extra.pendingApprovals ? { pending_approvals: extra.pendingApprovals.map(approvalPayload) } : {}),
  };
}

export function turnPayload(t: TurnRecord): Record<string, unknown> {
  return {
    id: t.id,
    thread_id: t.threadId,
    status: t.status,
    prompt: t.prompt,
    mode: t.mode,
    posture: t.posture,
    model: t.model,
    error: t.error,
    error_category: t.errorCategory,
    usage: snakeKeys(t.usage),
    created_at: t.createdAt,
    completed_at: t.completedAt,
  };
}

export function itemPayload(i: ItemRecord): Record<string, unknown> {
  return {
    id: i.id,
    thread_id: i.threadId,
    turn_id: i.turnId,
    kind: i.kind,
    status: i.status,
    summary: i.summary,
    detail: i.detail,
    metadata: i.metadata,
    decision: snakeKeys(i.decision),
    created_at: i.createdAt,
    updated_at: i.updatedAt,
  };
}

export function userInputPayload(u: UserInputRecord): Record<string, unknown> {
  return {
    id: u.id,
    thread_id: u.threadId,
    turn_id: u.turnId,
    item_id: u.itemId,
    questions: u.questions.map((q) => ({
      id: q.id,
      header: q.header,
      question: q.question,
      options: q.options.map((o) => ({ label: o.label, ...(o.description !== undefined ? { description: o.description } : {}) })),
      allow_free_text: q.allowFreeText,
      multi_select: q.multiSelect,
    })),
    status: u.status,
    answers: u.answers,
    requested_at: u.requestedAt,
    expires_at: u.expiresAt,
    answered_at: u.answeredAt,
  };
}

export function approvalPayload(a: ApprovalRecord): Record<string, unknown> {
  return {
    id: a.id,
    thread_id: a.threadId,
    turn_id: a.turnId,
    item_id: a.itemId,
    tool: a.tool,
    reason: a.reason,
    summary: a.summary,
    hook: a.hookName === null ? null : { name: a.hookName, reason: a.hookReason },
    status: a.status,
    decision: a.decision,
    remember: a.remember,
    scope: a.scope,
    always: a.always === null ? null : { rule: a.always.rule, file: 'permissions.toml', reason: a.always.reason },
    preview: a.preview,
    requested_at: a.requestedAt,
    expires_at: a.expiresAt,
    decided_at: a.decidedAt,
  };
}
