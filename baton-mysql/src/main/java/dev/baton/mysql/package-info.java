/**
 * Baton's locks on MySQL and MariaDB: {@link dev.baton.mysql.MySqlLockClient}.
 *
 * <p>The client creates its lock table and counter on first use if they are missing, and its table of requests to
 * release on the first request or listen. Where the application's user may not create tables, an administrator
 * creates them once (for another table name, replace {@code baton_locks} throughout) and grants the user their use:
 *
 * <pre>{@code
 * CREATE TABLE IF NOT EXISTS baton_locks (
 *   lock_key   VARBINARY(1024) NOT NULL,  -- the key's UTF-8 bytes
 *   entry_id   BIGINT          NOT NULL,  -- from baton_locks_fencing: the arrival order and the fencing token
 *   owner_id   VARCHAR(255)    NOT NULL,
 *   holder     TEXT            NOT NULL,
 *   mode       VARCHAR(16)     NOT NULL,  -- EXCLUSIVE, SHARED or PERMIT
 *   capacity   INT             NOT NULL,
 *   expires_at DATETIME(6)     NOT NULL,  -- UTC, by the database's clock
 *   contended  BOOLEAN         NOT NULL DEFAULT FALSE,
 *   PRIMARY KEY (lock_key, entry_id),
 *   KEY baton_locks_expires_at (expires_at)
 * ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
 * CREATE TABLE IF NOT EXISTS baton_locks_fencing (
 *   id TINYINT NOT NULL PRIMARY KEY,
 *   v  BIGINT  NOT NULL
 * ) ENGINE = InnoDB;
 * INSERT IGNORE INTO baton_locks_fencing (id, v) VALUES (1, 0);
 * CREATE TABLE IF NOT EXISTS baton_locks_requests (
 *   request_id BIGINT          NOT NULL AUTO_INCREMENT,
 *   client_id  VARCHAR(255)    NOT NULL,
 *   owner_id   VARCHAR(255)    NOT NULL,
 *   lock_key   VARBINARY(1024) NOT NULL,
 *   expires_at DATETIME(6)     NOT NULL,
 *   PRIMARY KEY (request_id),
 *   KEY by_client (client_id, request_id),
 *   KEY by_expiry (expires_at)
 * ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
 * GRANT SELECT, INSERT, UPDATE, DELETE ON app.baton_locks TO 'app'@'%';
 * GRANT SELECT, UPDATE ON app.baton_locks_fencing TO 'app'@'%';
 * GRANT SELECT, INSERT, DELETE ON app.baton_locks_requests TO 'app'@'%';
 * }</pre>
 *
 * <p>Every call is one statement or one short transaction on a connection borrowed for it: no session state, no
 * {@code GET_LOCK}, so the client works through a proxy that pools connections, and on Galera (whose certification
 * turns the counter row's conflicts into retried deadlock errors) as on one server, once each node's reads wait for the
 * cluster ({@code wsrep_sync_wait}, which the client sets on its own connections and requires of an application's
 * {@code DataSource}: {@code CausalReads}).
 */
package dev.baton.mysql;
