/**
 * The store's schema as an ordered list of forward migrations. Migration `n` (1-based) moves
 * the database from `user_version = n - 1` to `n`; each runs in its own transaction. A
 * database written by a newer build (a higher `user_version`) is refused, never downgraded.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    session_id TEXT,
    workspace TEXT NOT NULL,
    mode TEXT NOT NULL,
    posture TEXT NOT NULL,
    model TEXT,
    status TEXT NOT NULL,
    active_turn_id TEXT,
    conversation TEXT,
    pruned_through_seq INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id),
    status TEXT NOT NULL,
    prompt TEXT NOT NULL,
    mode TEXT NOT NULL,
    posture TEXT NOT NULL,
    model TEXT,
    error TEXT,
    error_category TEXT,
    usage TEXT,
    created_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE INDEX turns_by_thread ON turns(thread_id, created_at);
  CREATE TABLE items (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id),
    turn_id TEXT NOT NULL REFERENCES turns(id),
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    summary TEXT NOT NULL,
    detail TEXT,
    metadata TEXT,
    decision TEXT,
    ordinal INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX items_by_thread ON items(thread_id, ordinal);
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id),
    turn_id TEXT NOT NULL,
    item_id TEXT,
    tool TEXT NOT NULL,
    reason TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT NOT NULL,
    decision TEXT,
    remember INTEGER NOT NULL DEFAULT 0,
    requested_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    decided_at TEXT
  );
  CREATE INDEX approvals_pending ON approvals(status, thread_id);
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL,
    turn_id TEXT,
    item_id TEXT,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX events_by_thread ON events(thread_id, seq);
  `,
  // 2: the conversation journal (each message committed as it joins a running turn's history,
  // so a crash loses none of it), the items of a turn found without a scan, and old events
  // found for retention without one.
  `
  CREATE TABLE conversation_log (
    thread_id TEXT NOT NULL REFERENCES threads(id),
    ordinal INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (thread_id, ordinal)
  ) WITHOUT ROWID;
  CREATE INDEX items_by_turn ON items(turn_id, ordinal);
  CREATE INDEX events_by_time ON events(created_at);
  `,
  // 3: archived threads, the hook that asked for an approval (its name and reason), and
  // questions the model asks a person (request_user_input), answered over HTTP.
  `
  ALTER TABLE threads ADD COLUMN archived_at TEXT;
  ALTER TABLE approvals ADD COLUMN hook_name TEXT;
  ALTER TABLE approvals ADD COLUMN hook_reason TEXT;
  CREATE INDEX approvals_by_thread ON approvals(thread_id);
  CREATE TABLE user_inputs (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES threads(id),
    turn_id TEXT NOT NULL,
    item_id TEXT,
    questions TEXT NOT NULL,
    status TEXT NOT NULL,
    answers TEXT,
    requested_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    answered_at TEXT
  );
  CREATE INDEX user_inputs_by_thread ON user_inputs(thread_id, status);
  `,
  // 4: how an approval was allowed (once, for the session, always), what "always" would
  // remember (or why it cannot), and a write's diff preview.
  `
  ALTER TABLE approvals ADD COLUMN scope TEXT;
  ALTER TABLE approvals ADD COLUMN always_rule TEXT;
  ALTER TABLE approvals ADD COLUMN preview TEXT;
  `,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
