/**
 * The database schema as numbered migrations. Migration N brings a database from version N-1
 * (SQLite's `user_version`, PostgreSQL's `toolgate_schema` row) to N; they are applied in order
 * at open, in one transaction. Append only: a released migration is never edited, a change is a
 * new migration. One schema for both databases: `POSTGRES` is the same list in PostgreSQL's
 * spelling (`toPostgres`: a millisecond time needs `BIGINT` there; `AUTOINCREMENT` and `INSERT OR
 * IGNORE` are SQLite's words).
 */
export * as Migrations from "./migrations.js"

export const MIGRATIONS: ReadonlyArray<string> = [
  `
  CREATE TABLE project (
    id TEXT PRIMARY KEY,
    worktree TEXT NOT NULL,
    trusted_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE permission (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (project_id, action, resource)
  );
  CREATE TABLE session (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    location TEXT NOT NULL,
    agent TEXT NOT NULL,
    rules TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE audit_log (
    id TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    project_id TEXT NOT NULL,
    session_id TEXT,
    action TEXT NOT NULL,
    resources TEXT NOT NULL,
    effect TEXT NOT NULL,
    decided_by TEXT NOT NULL CHECK (decided_by IN ('rule', 'saved', 'person')),
    reply TEXT
  );
  CREATE INDEX audit_log_project ON audit_log (project_id, at);
  `,
  `
  CREATE TABLE snapshot (
    session_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    tree TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, message_id)
  );
  CREATE TABLE revert (
    session_id TEXT PRIMARY KEY,
    message_id TEXT NOT NULL,
    tree TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `,
  `
  CREATE TABLE todo (
    session_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    id TEXT,
    content TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed', 'cancelled')),
    priority TEXT CHECK (priority IN ('high', 'medium', 'low')),
    PRIMARY KEY (session_id, position)
  );
  `,
  // Trust bound to a config file's content. `project.trusted_at` stays as it was: it now only
  // tells that an older toolgate trusted the project without recording what it trusted.
  `
  CREATE TABLE trusted_config (
    path TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    hash TEXT NOT NULL,
    content TEXT NOT NULL,
    trusted_at INTEGER NOT NULL
  );
  CREATE INDEX trusted_config_project ON trusted_config (project_id);
  `,
  // Sessions end (their asks are declined, their approvals go), and "always" may hold for one
  // session only: those approvals live beside the session, never in the project's table.
  `
  ALTER TABLE session ADD COLUMN ended_at INTEGER;
  CREATE TABLE session_approval (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (session_id, action, resource)
  );
  `,
  // The audit log says why: the deciding rules with their sources, and the request an ask and
  // its answer share, so an ask with no recorded answer can be told apart (still pending).
  `
  ALTER TABLE audit_log ADD COLUMN request_id TEXT;
  ALTER TABLE audit_log ADD COLUMN rules TEXT;
  CREATE INDEX audit_log_session ON audit_log (session_id, at);
  CREATE INDEX audit_log_request ON audit_log (request_id) WHERE request_id IS NOT NULL;
  `,
  // An ask knows the process waiting on it (storage/owner.ts), so one left by a process that
  // died can be ended as interrupted (AuditLog.recover). `audit_pending` holds the asks with no
  // recorded end: the recovery sweep's work list, as small as the asks waiting now whatever the
  // log's length. The asks an older toolgate left without an end join it with no owner, and the
  // first sweep ends them: an older toolgate refuses a database at 7, so only one that opened it
  // before this upgrade and still runs could yet answer one (its end is then recorded twice).
  `
  ALTER TABLE audit_log ADD COLUMN owner TEXT;
  CREATE TABLE audit_pending (
    request_id TEXT PRIMARY KEY,
    audit_id TEXT NOT NULL
  );
  INSERT OR IGNORE INTO audit_pending (request_id, audit_id)
    SELECT request_id, id FROM audit_log AS ask
    WHERE effect = 'ask' AND request_id IS NOT NULL AND reply IS NULL
      AND NOT EXISTS (SELECT 1 FROM audit_log AS answer WHERE answer.request_id = ask.request_id AND answer.reply IS NOT NULL);
  `,
  // The event log a server keeps (server/event-log.ts). AUTOINCREMENT: a sequence number is never
  // given twice, even once every row was pruned. `location` is '' for the process's own events.
  // `event_pruned` keeps, per location, the highest sequence number retention deleted, so a
  // client whose last event is older is told to resync instead of silently missing events.
  `
  CREATE TABLE event (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    location TEXT NOT NULL,
    directory TEXT,
    session_id TEXT,
    type TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX event_location ON event (location, seq);
  CREATE INDEX event_at ON event (at);
  CREATE TABLE event_pruned (
    location TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  );
  `,
  // A decision leads to its call: the audit record names the tool call it judged, and
  // `call_outcome` keeps what that call was given and what it answered (both cut to a bounded
  // size; the full output stays where the output cut put it), so a person reading the log
  // later sees the input and the outcome of the call behind a decision.
  `
  ALTER TABLE audit_log ADD COLUMN tool_call_id TEXT;
  CREATE TABLE call_outcome (
    session_id TEXT NOT NULL,
    tool_call_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    input TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (session_id, tool_call_id)
  );
  `,
  // The change log of snapshots (snapshot/change-log.ts), which toolgate created at open before
  // storage had two databases: IF NOT EXISTS, so a file that has it already keeps its rows.
  `
  CREATE TABLE IF NOT EXISTS snapshot_change (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('tool', 'shell', 'revert', 'unrevert')),
    message_id TEXT,
    before_tree TEXT NOT NULL,
    after_tree TEXT,
    changes TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS snapshot_change_session ON snapshot_change (session_id, id);
  `,
  // The organization's policy (permission/policy.ts): rules an administrator writes, applied
  // after every other rule and never loosened by an approval.
  `
  CREATE TABLE policy (
    position INTEGER PRIMARY KEY,
    action TEXT NOT NULL,
    resource TEXT NOT NULL,
    effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny', 'ask')),
    rule_when TEXT CHECK (rule_when IS NULL OR rule_when = 'sandboxed'),
    note TEXT
  );
  `,
  // Asks the servers of one PostgreSQL share (interaction/shared.ts): pending from when they are
  // asked, claimed by the one reply that wins, ended however they settle. Unused on SQLite.
  `
  CREATE TABLE shared_ask (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    session_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    owner TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    answer TEXT,
    answered_at INTEGER,
    ended_at INTEGER
  );
  CREATE INDEX shared_ask_open ON shared_ask (created_at) WHERE answer IS NULL AND ended_at IS NULL;
  `,
  // What a revert or an unrevert is about to write, kept when its change-log entry opens, and the
  // process that opened it (storage/owner.ts): a restore killed midway leaves the entry open, and
  // the next revert, unrevert or diff of the session closes it from these (snapshot/interrupted.ts).
  `
  ALTER TABLE snapshot_change ADD COLUMN target_tree TEXT;
  ALTER TABLE snapshot_change ADD COLUMN paths TEXT;
  ALTER TABLE snapshot_change ADD COLUMN owner TEXT;
  `,
  // The change-log rows still open: every call of a Location looks for those a dead process left,
  // in any session there (snapshot/history.ts), so they are found without reading the whole log.
  `
  CREATE INDEX snapshot_change_open ON snapshot_change (session_id) WHERE after_tree IS NULL;
  `,
]

/** The schema version this code writes and understands. */
export const VERSION = MIGRATIONS.length

/**
 * A migration as PostgreSQL spells it: SQLite's autoincrementing key is a `BIGSERIAL`, every other
 * `INTEGER` a `BIGINT` (millisecond times), and `INSERT OR IGNORE … ;` is `INSERT … ON CONFLICT
 * DO NOTHING;`. Both spellings of every migration run in the tests, which compare the two schemas.
 */
const toPostgres = (sql: string) =>
  sql
    .replace(/\bINTEGER PRIMARY KEY AUTOINCREMENT\b/g, "BIGSERIAL PRIMARY KEY")
    .replace(/\bINTEGER\b/g, "BIGINT")
    .replace(/\bINSERT OR IGNORE INTO\b([^;]*);/g, "INSERT INTO$1 ON CONFLICT DO NOTHING;")

/** The migrations as PostgreSQL runs them, numbered as `MIGRATIONS`. */
export const POSTGRES: ReadonlyArray<string> = MIGRATIONS.map(toPostgres)
