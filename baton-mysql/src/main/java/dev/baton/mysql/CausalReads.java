package dev.baton.mysql;

import dev.baton.BackendSetupException;
import dev.baton.jdbc.ConnectionSetup;
import dev.baton.jdbc.JdbcCalls;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * On a Galera node (MariaDB Cluster, Percona XtraDB Cluster), reads that wait for the cluster. A node applies what
 * another committed a moment after that commit returned: a plain read there may miss a holder's renewal made on
 * another node, see its entry expired, and grant the lock a second time (an acquire's transaction conflicts with
 * other acquires on the counter row, so certification orders those, but not with renewals, which touch only the
 * holder's row). {@code wsrep_sync_wait} makes a statement first wait until its node applied everything the cluster
 * had committed when it began, as one server would answer it; the server waits so only before a statement outside a
 * transaction or a transaction's first, and only for the kinds of statement whose bits are set. Baton needs two:
 * {@value #READS} (reads, and {@code START TRANSACTION}, which begins the claim) and {@value #UPDATES} (updates and
 * deletes: the full transaction that adds an entry begins with the counter's {@code UPDATE}), so {@value #NEEDED} or
 * any value with both.
 *
 * <p>As a connection setup, of the client's own pool: on a Galera node, sets both bits on each new connection
 * ({@code causal-reads.sql}), keeping the others the server set. As a check, at connect ({@link #check}): refuses a
 * Galera node whose connections lack either, which is what an application's {@code DataSource} gives unless told,
 * with what to set. On a server without Galera it sets and checks nothing ({@code galera.sql} reads that).
 */
final class CausalReads implements ConnectionSetup {
  /** The bit of {@code wsrep_sync_wait} that makes reads (and {@code START TRANSACTION}) wait for the cluster. */
  static final int READS = 1;
  /** The bit that makes updates and deletes wait. */
  static final int UPDATES = 2;
  /** The bits Baton needs. */
  static final int NEEDED = READS | UPDATES;

  private final Sql sql;

  /** Sets causal reads with {@code sql}'s statements. */
  CausalReads(Sql sql) {
    this.sql = sql;
  }

  @Override
  public void apply(Connection connection) throws SQLException {
    Node node = read(connection, sql);
    if (node.galera() && !node.causal()) {
      try (PreparedStatement set = connection.prepareStatement(sql.causalReads)) {
        set.setInt(1, node.syncWait() | NEEDED);
        set.execute();
      }
    }
  }

  /**
   * Refuses a Galera node whose reads do not wait for the cluster, as a client connects.
   *
   * @throws BackendSetupException naming {@code wsrep_sync_wait} and where to set it
   */
  static void check(JdbcCalls calls, Sql sql) {
    Node node = calls.call("Checking whether the server is a Galera node", connection -> read(connection, sql));
    if (node.galera() && !node.causal()) {
      throw new BackendSetupException("The server at " + calls.server() + " is a Galera node (wsrep_on = ON) whose"
          + " connections do not wait for the cluster before reads, updates and deletes (wsrep_sync_wait = "
          + node.syncWait() + "): a lock renewed on another node may look expired there before the renewal is"
          + " applied, and be granted twice. Set wsrep_sync_wait = " + NEEDED + " (or any value with bits "
          + READS + " and " + UPDATES + ") on the application's connections (MariaDB Connector/J:"
          + " sessionVariables=wsrep_sync_wait=" + NEEDED + " in the JDBC URL; HikariCP: connectionInitSql = SET"
          + " SESSION wsrep_sync_wait = " + NEEDED + ") or on every node (SET GLOBAL wsrep_sync_wait = " + NEEDED
          + ", and in its configuration). A client given the node's address instead of a DataSource sets it on its"
          + " own connections.");
    }
  }

  private static Node read(Connection connection, Sql sql) throws SQLException {
    boolean on = false;
    boolean provider = false;
    int syncWait = 0;
    try (PreparedStatement show = connection.prepareStatement(sql.galera); ResultSet rows = show.executeQuery()) {
      while (rows.next()) {
        String name = rows.getString(1).toLowerCase(Locale.ROOT);
        String value = rows.getString(2);
        switch (name) {
          case "wsrep_on" -> on = "ON".equalsIgnoreCase(value) || "1".equals(value);
          case "wsrep_provider" -> provider = value != null && !value.isBlank() && !"none".equalsIgnoreCase(value);
          case "wsrep_sync_wait" -> syncWait = Integer.parseInt(value.strip());
          default -> { }
        }
      }
    }
    return new Node(on && provider, syncWait);
  }

  /**
   * What a session of the server reports.
   *
   * @param galera whether it is a Galera node: {@code wsrep_on} with a provider
   * @param syncWait the session's {@code wsrep_sync_wait}
   */
  private record Node(boolean galera, int syncWait) {
    boolean causal() {
      return (syncWait & NEEDED) == NEEDED;
    }
  }
}
