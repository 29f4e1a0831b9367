package dev.baton.mysql;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.internal.Settings;
import dev.baton.jdbc.ClientSettings;
import dev.baton.jdbc.Connections;
import dev.baton.jdbc.PooledConnections;
import dev.baton.spi.ClientFactory;
import java.time.Duration;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Locks on a MySQL or MariaDB database, through MariaDB Connector/J alone.
 *
 * <pre>{@code
 * try (LockClient client = MySqlLockClient.connect("mysql://app:secret@db.internal:3306/app")) {
 *   try (Lease lease = client.lock("orders/42").acquire(Duration.ofSeconds(5))) {
 *     ...
 *   }
 * }
 * // or on the application's own pool:
 * LockClient client = MySqlLockClient.builder().dataSource(hikari).connect();
 * }</pre>
 *
 * <p>Each lock is a queue of rows in one InnoDB table ({@code baton_locks} by default, created on first use if
 * missing; the DDL is in the package documentation), numbered by a counter row, whose numbers are the fencing tokens.
 * An entry expires by the database's clock in UTC, never the JVM's, and the engine's watchdog renews it while it is
 * held; a crashed holder's lock is free one ttl after its last renewal, and its row is deleted by any running client at
 * most {@link #DEFAULT_SWEEP_EVERY sweepEvery} later. Every call borrows a connection for one statement or one short
 * transaction and gives it back, so no connection is held while a lock is held. Waiters in other processes find a
 * release by looking again, at most {@link Builder#maxPollInterval maxPollInterval} apart; those of this client are
 * woken at once.
 */
public final class MySqlLockClient {
  /** The lock table's name unless told otherwise. */
  public static final String DEFAULT_TABLE = Sql.DEFAULT_TABLE;

  /**
   * How often each client deletes the expired entries of every key unless told otherwise: a crashed holder's or
   * waiter's row is gone at most its ttl and this long (and one sweep's run) after its last renewal, while any client
   * of the table runs.
   */
  public static final Duration DEFAULT_SWEEP_EVERY = Duration.ofSeconds(5);

  private MySqlLockClient() {}

  /**
   * Connects to {@code mysql://user:password@host:3306/db} (or {@code mariadb://}, {@code jdbc:mysql://},
   * {@code jdbc:mariadb://}) with the default settings.
   *
   * @throws IllegalArgumentException if the address is malformed
   * @throws dev.baton.PermissionDeniedException if the server refused the user or password
   * @throws dev.baton.BackendUnavailableException if the server could not be reached
   */
  public static LockClient connect(String address) {
    return builder().address(address).connect();
  }

  /** A builder of a client with the default settings. */
  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a MySQL lock client; every setter checks its value at once. */
  public static final class Builder {
    private final ClientSettings settings = new ClientSettings(MySqlAddress.FORMAT, "mysql://user:password@host:3306/db",
        "mydb");
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration commandTimeout = Duration.ofSeconds(5);
    private Duration maxPollInterval = Duration.ofMillis(250);
    private Duration sweepEvery = DEFAULT_SWEEP_EVERY;
    private LockOptions defaultOptions = LockOptions.defaults();

    private Builder() {}

    /**
     * The server: {@code mysql://user:password@host:3306/db?param=value} or {@code mariadb://...}; query parameters go
     * to MariaDB Connector/J as they are (e.g. {@code sslMode=verify-full}, or {@code allowPublicKeyRetrieval=true}
     * for MySQL 8's {@code caching_sha2_password} without TLS).
     */
    public Builder address(String address) {
      settings.address(address);
      return this;
    }

    /**
     * Borrows connections from the application's pool (HikariCP, as Spring Boot has it) instead of opening its own,
     * whose settings it leaves as they are. On MariaDB an uncontended acquire is still one round trip there (one
     * compound statement); on MySQL it is a transaction of one statement a round trip.
     */
    public Builder dataSource(DataSource dataSource) {
      settings.dataSource(dataSource);
      return this;
    }

    /** Logs in as this user, for an address without one. */
    public Builder credentials(String user, String password) {
      settings.credentials(user, password);
      return this;
    }

    /**
     * The namespace, so that the locks of one application are not another's: on MySQL, where the locks of one table
     * are one namespace, the lock table {@code NAMESPACE_locks} ({@code orders} is the table {@code orders_locks},
     * {@code billing.orders} the table {@code orders_locks} of the database {@code billing}); {@code baton} by default,
     * the table {@code baton_locks}. To name the table as the database's owners want it, {@link #table} instead.
     */
    public Builder namespace(String namespace) {
      settings.namespace(namespace);
      return this;
    }

    /**
     * The lock table, optionally qualified by its database, named as it is (the table is the namespace:
     * {@link #namespace} names it {@code NAMESPACE_locks}); {@code baton_locks} by default. Its counter of fencing
     * tokens is the table's name followed by {@code _fencing}. Only lower-case letters, digits and {@code _} are taken:
     * a name with any other character (a quote, a backtick, a space, a semicolon) is refused, not escaped.
     */
    public Builder table(String table) {
      settings.table(table);
      return this;
    }

    /** How long opening a connection may take before the server counts as unreachable; 5 s by default. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = Settings.positive("connectTimeout", connectTimeout);
      return this;
    }

    /**
     * How long one call may take before the server counts as unreachable; 5 s by default. It bounds every call, on the
     * client's own connections or a data source's (a call that outlasts it is cancelled), and on MariaDB how long the
     * server keeps the transaction of a client that stopped in its middle.
     */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = Settings.positive("commandTimeout", commandTimeout);
      return this;
    }

    /**
     * The longest a waiter waits before it looks again whether a lock released by another process is free; 250 ms by
     * default. A waiter looks again 10 ms after it found the queue moved, then twice as long each time it has not, up
     * to 25 ms while the queue moved within the last second and up to this after. A client that listens for requests to
     * release polls for them alike: 10 ms after it found one, up to this when none come.
     */
    public Builder maxPollInterval(Duration maxPollInterval) {
      this.maxPollInterval = Settings.positive("maxPollInterval", maxPollInterval);
      return this;
    }

    /**
     * How often the client deletes the expired entries of every key, those of crashed holders and waiters among them,
     * in the background: one cheap statement (a range scan of an index) unless there are any; 5 s by default.
     */
    public Builder sweepEvery(Duration sweepEvery) {
      this.sweepEvery = Settings.positive("sweepEvery", sweepEvery);
      return this;
    }

    /** How many connections a client made from an address keeps open between calls; 4 by default. */
    public Builder maxIdleConnections(int maxIdleConnections) {
      settings.maxIdleConnections(maxIdleConnections);
      return this;
    }

    /** The options of handles from {@link LockClient#lock(String)}. */
    public Builder defaultOptions(LockOptions defaultOptions) {
      this.defaultOptions = Settings.defaultOptions(defaultOptions);
      return this;
    }

    /**
     * Connects and creates the lock table if it is missing.
     *
     * @throws IllegalStateException if neither an address nor a data source was given, or both; or both a namespace
     *     and a table
     * @throws dev.baton.PermissionDeniedException if the server refused the user or password, or the user may not
     *     use or create the lock table
     * @throws dev.baton.BackendSetupException if the database or the table is not set up for Baton (a table of
     *     another shape); nothing is left open
     * @throws dev.baton.BackendUnavailableException if the server could not be reached; nothing is left open
     */
    public LockClient connect() {
      Sql sql = new Sql(settings.lockTable());
      IdleTransactionLimit idleTransactions = new IdleTransactionLimit(sql, Math.max(1, commandTimeout.toSeconds()));
      CausalReads causalReads = new CausalReads(sql);
      Connections connections = settings.connections(new org.mariadb.jdbc.Driver(), "MariaDB Connector/J",
          this::driverProperties, connection -> {
            idleTransactions.apply(connection);
            causalReads.apply(connection);
          });
      boolean ownPool = connections instanceof PooledConnections; // an application's DataSource: its own settings
      return ClientFactory.newClient(MySqlBackend.connect(connections, sql, commandTimeout, maxPollInterval,
          sweepEvery, settings.server(), ownPool), defaultOptions);
    }

    private Properties driverProperties() {
      Properties properties = settings.login();
      properties.setProperty("connectTimeout", Long.toString(Math.max(1, connectTimeout.toMillis())));
      properties.setProperty("socketTimeout", Long.toString(Math.max(1, commandTimeout.toMillis())));
      properties.setProperty("transactionIsolation", "READ_COMMITTED");
      properties.setProperty("allowMultiQueries", "true"); // an acquire's first try in one round trip: claim.sql
      properties.setProperty("sessionVariables", "innodb_lock_wait_timeout="
          + Math.max(1, commandTimeout.toSeconds()));
      return properties;
    }
  }
}
