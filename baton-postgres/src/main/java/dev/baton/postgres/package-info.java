/**
 * Baton's locks on PostgreSQL: {@link dev.baton.postgres.PostgresLockClient}.
 *
 * <p>The client creates its table, sequence and index on first use if they are missing. Where the application's user
 * may not create tables, an administrator creates them once (for another table name, replace {@code baton_locks}
 * throughout) and grants the user their use:
 *
 * <pre>{@code
 * CREATE TABLE IF NOT EXISTS baton_locks (
 *   lock_key   text        NOT NULL,
 *   entry_id   bigint      NOT NULL,  -- from baton_locks_fencing: the arrival order and the fencing token
 *   owner_id   text        NOT NULL,
 *   holder     text        NOT NULL,
 *   mode       text        NOT NULL,  -- EXCLUSIVE, SHARED or PERMIT
 *   capacity   integer     NOT NULL,
 *   expires_at timestamptz NOT NULL,  -- the database's clock
 *   contended  boolean     NOT NULL DEFAULT false,
 *   PRIMARY KEY (lock_key, entry_id)
 * );
 * CREATE SEQUENCE IF NOT EXISTS baton_locks_fencing;
 * CREATE INDEX IF NOT EXISTS baton_locks_expires_at ON baton_locks (expires_at);  -- the sweep of expired rows
 * GRANT SELECT, INSERT, UPDATE, DELETE ON baton_locks TO app;
 * GRANT USAGE ON SEQUENCE baton_locks_fencing TO app;
 * }</pre>
 *
 * <p>A table made by an earlier version also has {@code UNIQUE (lock_key, owner_id)}: it works as it is, and its
 * owner may drop that constraint, which costs every acquire an index write, once no client older than this one uses
 * the table.
 *
 * <p>Behind PgBouncer in transaction mode every call works as it is (no call relies on session state: the per-key
 * advisory lock of an acquire is transaction-level), except {@code LISTEN}: give the client an address that reaches
 * PostgreSQL directly, or its waiters find out about releases only by looking again after
 * {@link dev.baton.postgres.PostgresLockClient.Builder#fallbackWait fallbackWait}.
 */
package dev.baton.postgres;
