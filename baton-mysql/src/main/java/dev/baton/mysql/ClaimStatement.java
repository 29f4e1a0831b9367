package dev.baton.mysql;

import dev.baton.jdbc.JdbcCalls;
import dev.baton.spi.AcquireRequest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/**
 * The statement that sends an acquire's first try in one round trip ({@code MySqlAttempt.claim}), chosen as a client
 * connects ({@link #choose}), if any:
 *
 * <ul>
 *   <li>On the client's own pool, whose connections run several statements a call ({@code allowMultiQueries}):
 *       {@code claim.sql}, on MariaDB and MySQL alike.
 *   <li>On an application's {@code DataSource}, whose settings Baton leaves alone: {@code claim-block.sql}, the same
 *       transaction in one compound statement ({@code BEGIN NOT ATOMIC ... END}), if the connection runs one
 *       ({@code block-probe.sql}). MariaDB does, whatever the pool's settings are: sent as text (MariaDB
 *       Connector/J's default) or prepared on the server ({@code useServerPrepStmts}). On a Galera node too: with
 *       bit 1 of {@code wsrep_sync_wait} ({@link CausalReads}) its transaction waits for the cluster as
 *       {@code claim.sql}'s does (tested by {@code MySqlGaleraTest} on a node that lags behind).
 *   <li>None where the probe is refused: MySQL, which has no compound statement outside stored programs, or a server
 *       that will not prepare one when the pool's driver prepares statements on the server. Every first try then
 *       takes the full transaction, one statement a round trip, with the same guarantees.
 * </ul>
 *
 * <p>A stored procedure would give MySQL one round trip too, and costs MariaDB less (the server compiles a compound
 * statement at each call, a procedure once per session), but it is an object to create (with {@code CREATE ROUTINE},
 * which an application's user often lacks), to grant ({@code EXECUTE}) and to replace at every upgrade of the claim:
 * the compound statement is plain text, runs with the user's own rights and changes with the library.
 *
 * @param sql the statement
 * @param readsFirst whether its parameters are the key's read first (the key, its floor), then our entry's
 *     ({@code claim-block.sql}); else our entry's first ({@code claim.sql})
 */
record ClaimStatement(String sql, boolean readsFirst) {
  /**
   * The server's answers that say the connection does not run a compound statement: a syntax error (1064: MySQL),
   * a statement the server will not prepare (1295), or one not allowed in a stored program (1314).
   */
  private static final Set<Integer> REFUSED = Set.of(1064, 1295, 1314);

  /**
   * The claim for connections that run several statements a call if {@code multiStatements}, else the compound
   * statement if a connection runs one; null if neither.
   *
   * @throws dev.baton.LockException if the probe failed otherwise (the server unreachable, the user refused)
   */
  static ClaimStatement choose(JdbcCalls calls, Sql sql, boolean multiStatements) {
    if (multiStatements) {
      return new ClaimStatement(sql.claim, false);
    }
    boolean runs = calls.call("Checking whether the server runs a compound statement", connection -> {
      try (PreparedStatement probe = calls.prepare(connection, sql.blockProbe)) {
        probe.setInt(1, 1);
        return returnsOne(probe);
      } catch (SQLException e) {
        if (refused(e)) {
          return false;
        }
        throw e;
      }
    });
    return runs ? new ClaimStatement(sql.claimBlock, true) : null;
  }

  /**
   * Sets {@code claim}'s parameters, in this statement's order: the read of {@code key}'s entries from {@code floor},
   * and {@code request}'s entry, expiring {@code ttlMillis} from now.
   */
  void bind(PreparedStatement claim, byte[] key, long floor, AcquireRequest request, long ttlMillis)
      throws SQLException {
    int read = readsFirst ? 1 : 7;
    int entry = readsFirst ? 3 : 1;
    claim.setBytes(read, key);
    claim.setLong(read + 1, floor);
    claim.setBytes(entry, key);
    claim.setString(entry + 1, request.ownerId());
    claim.setString(entry + 2, request.ownerRecord());
    claim.setString(entry + 3, request.rule().mode().name());
    claim.setInt(entry + 4, request.rule().capacity());
    claim.setLong(entry + 5, ttlMillis);
  }

  /** Runs the probe: whether its first result set holds 1; its other results read, so that an error in them throws. */
  private static boolean returnsOne(PreparedStatement probe) throws SQLException {
    boolean one = false;
    boolean rows = probe.execute();
    boolean read = false;
    while (rows || probe.getUpdateCount() != -1) {
      if (rows && !read) {
        try (ResultSet result = probe.getResultSet()) {
          one = result.next() && result.getInt(1) == 1;
        }
        read = true;
      }
      rows = probe.getMoreResults();
    }
    return one;
  }

  private static boolean refused(SQLException e) {
    return REFUSED.contains(e.getErrorCode()) || (e.getSQLState() != null && e.getSQLState().startsWith("0A"));
  }
}
