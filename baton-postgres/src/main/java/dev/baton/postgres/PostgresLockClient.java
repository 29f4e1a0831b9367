package dev.baton.postgres;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.internal.Settings;
import dev.baton.jdbc.ClientSettings;
import dev.baton.jdbc.ConnectionSetup;
import dev.baton.jdbc.Connections;
import dev.baton.spi.ClientFactory;
import java.time.Duration;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Locks on a PostgreSQL database, through the PostgreSQL JDBC driver alone.
 *
 * <pre>{@code
 * try (LockClient client = PostgresLockClient.connect("postgresql://app:secret@db.internal:5432/app")) {
 *   try (Lease lease = client.lock("orders/42").acquire(Duration.ofSeconds(5))) {
 *     ...
 *   }
 * }
 * // or on the application's own pool:
 * LockClient client = PostgresLockClient.builder().dataSource(hikari).connect();
 * }</pre>
 *
 * <p>Each lock is a queue of rows in one table ({@code baton_locks} by default, created on first use if missing; the
 * DDL is in the package documentation), numbered by a sequence, whose numbers are the fencing tokens. An entry
 * expires by the database's clock, never the JVM's, and the engine's watchdog renews it while it is held; a crashed
 * holder's lock is free one ttl after its last renewal, and its row is deleted by any running client at most
 * {@link #DEFAULT_SWEEP_EVERY sweepEvery} later. Every call borrows a connection for one statement or one
 * short transaction and gives it back, so no connection is held while a lock is held and calls work through
 * PgBouncer in transaction mode. Waiters are woken by {@code NOTIFY} on one connection of the client's own, and look
 * again by themselves after a bounded wait.
 */
public final class PostgresLockClient {
  /** The lock table's name unless told otherwise. */
  public static final String DEFAULT_TABLE = Sql.DEFAULT_TABLE;

  /**
   * How often each client deletes the expired entries of every key unless told otherwise: a crashed holder's or
   * waiter's row is gone at most its ttl and this long (and one sweep's run) after its last renewal, while any client
   * of the table runs.
   */
  public static final Duration DEFAULT_SWEEP_EVERY = Duration.ofSeconds(5);

  private PostgresLockClient() {}

  /**
   * Connects to {@code postgresql://user:password@host:5432/db} (or {@code jdbc:postgresql://...}) with the default
   * settings.
   *
   * @throws IllegalArgumentException if the address is malformed
   * @throws dev.baton.PermissionDeniedException if the server refused the user or password
   * @throws dev.baton.BackendUnavailableException if the server could not be reached
   */
  public static LockClient connect(String address) {
    return builder().address(address).connect();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a PostgreSQL lock client; every setter checks its value at once. */
  public static final class Builder {
    private final ClientSettings settings = new ClientSettings(PostgresAddress.FORMAT,
        "postgresql://user:password@host:5432/db", "myschema");
    private Duration commandTimeout = Duration.ofSeconds(5);
    private Duration fallbackWait = Duration.ofSeconds(5);
    private Duration sweepEvery = DEFAULT_SWEEP_EVERY;
    private LockOptions defaultOptions = LockOptions.defaults();

    private Builder() {}

    /**
     * The server: {@code postgresql://user:password@host:5432/db?param=value} or {@code jdbc:postgresql://...};
     * query parameters go to the driver as they are.
     */
    public Builder address(String address) {
      settings.address(address);
      return this;
    }

    /**
     * Borrows connections from the application's pool (HikariCP, as Spring Boot has it) instead of opening its own.
     * The client keeps one of them open, for notifications, until it is closed.
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
     * The namespace, so that the locks of one application are not another's: on PostgreSQL, where the locks of one
     * table are one namespace, the lock table {@code NAMESPACE_locks} ({@code orders} is the table
     * {@code orders_locks}, {@code billing.orders} the table {@code orders_locks} of the schema {@code billing});
     * {@code baton} by default, the table {@code baton_locks}. To name the table as the database's owners want it,
     * {@link #table} instead.
     */
    public Builder namespace(String namespace) {
      settings.namespace(namespace);
      return this;
    }

    /**
     * The lock table, optionally schema-qualified, named as it is (the table is the namespace: {@link #namespace}
     * names it {@code NAMESPACE_locks}); {@code baton_locks} by default. Its sequence is the table's name followed by
     * {@code _fencing}, and its notification channel the table's name.
     */
    public Builder table(String table) {
      settings.table(table);
      return this;
    }

    /** How long one call may take before the server counts as unreachable; 5 s by default. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = Settings.positive("commandTimeout", commandTimeout);
      return this;
    }

    /** The longest a waiter waits for a notification before it looks again by itself; 5 s by default. */
    public Builder fallbackWait(Duration fallbackWait) {
      this.fallbackWait = Settings.positive("fallbackWait", fallbackWait);
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
     * Connects, creates the lock table if it is missing and listens for releases.
     *
     * @throws IllegalStateException if neither an address nor a data source was given, or both; or both a namespace
     *     and a table
     * @throws dev.baton.PermissionDeniedException if the server refused the user or password, or the user may not
     *     use or create the lock table
     * @throws dev.baton.BackendSetupException if the database, the table's schema or the table is not set up for
     *     Baton (a table of another shape); nothing is left open
     * @throws dev.baton.BackendUnavailableException if the server could not be reached; nothing is left open
     */
    public LockClient connect() {
      String lockTable = settings.lockTable();
      Connections connections = settings.connections(new org.postgresql.Driver(), "The PostgreSQL driver",
          this::driverProperties, ConnectionSetup.NONE);
      return ClientFactory.newClient(PostgresBackend.connect(connections, lockTable, commandTimeout, fallbackWait,
          sweepEvery, settings.server()), defaultOptions);
    }

    private Properties driverProperties() {
      Properties properties = settings.login();
      long seconds = Math.max(1, commandTimeout.toSeconds());
      properties.setProperty("connectTimeout", Long.toString(seconds));
      properties.setProperty("loginTimeout", Long.toString(seconds));
      properties.setProperty("socketTimeout", Long.toString(seconds * 3));
      properties.setProperty("ApplicationName", PostgresSessions.CLIENTS);
      return properties;
    }
  }
}
