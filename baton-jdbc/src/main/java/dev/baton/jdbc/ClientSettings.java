package dev.baton.jdbc;

import java.sql.Driver;
import java.util.Properties;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The settings a SQL store's builder takes alike, each checked as it is set: the address or the application's
 * {@link DataSource}, the credentials, the lock table (named as it is, or by a namespace), the idle connections of
 * Baton's own pool. The builders keep their public setters and delegate to it, so their messages stay each store's.
 */
public final class ClientSettings {
  private final AddressFormat format;
  private final String addressExample;
  private final String qualifier;
  private JdbcAddress address;
  private DataSource dataSource;
  private String user;
  private String password;
  private String table;
  private String namespace;
  private int maxIdleConnections = 4;

  /**
   * Settings of a store whose addresses are of {@code format}; {@code addressExample} is the address suggested to a
   * builder given none (e.g. {@code postgresql://user:password@host:5432/db}), {@code qualifier} what qualifies a
   * table's name in examples (e.g. {@code myschema}).
   */
  public ClientSettings(AddressFormat format, String addressExample, String qualifier) {
    this.format = format;
    this.addressExample = addressExample;
    this.qualifier = qualifier;
  }

  /**
   * The server's address.
   *
   * @throws IllegalArgumentException if it is malformed
   */
  public void address(String address) {
    this.address = format.parse(address);
  }

  /**
   * The application's pool, instead of an address.
   *
   * @throws IllegalArgumentException if it is null
   */
  public void dataSource(DataSource dataSource) {
    if (dataSource == null) {
      throw new IllegalArgumentException("The data source must not be null.");
    }
    this.dataSource = dataSource;
  }

  /**
   * The user and password, for an address without them.
   *
   * @throws IllegalArgumentException if the user has no name or no password
   */
  public void credentials(String user, String password) {
    if (user == null || user.isBlank() || password == null) {
      throw new IllegalArgumentException("A " + format.store() + " user needs a name and a password; the name was '"
          + user + "'.");
    }
    this.user = user;
    this.password = password;
  }

  /**
   * The namespace, which names the lock table {@code NAMESPACE_locks}.
   *
   * @throws IllegalArgumentException if that is not a table's name
   */
  public void namespace(String namespace) {
    if (namespace == null || !SqlFiles.isTable(namespace + "_locks")) {
      throw new IllegalArgumentException("The namespace names the lock table NAMESPACE_locks on " + format.store()
          + ", so it must be a lower-case name such as orders or " + qualifier + ".orders (letters, digits and _, at"
          + " most 35 characters each part), but was '" + namespace + "'. Use table(name) to name the table as it"
          + " is.");
    }
    this.namespace = namespace;
  }

  /**
   * The lock table, named as it is.
   *
   * @throws IllegalArgumentException if it is not a lower-case name that needs no quotes
   */
  public void table(String table) {
    this.table = SqlFiles.checkTable(table, qualifier);
  }

  /**
   * How many connections Baton's own pool keeps open between calls.
   *
   * @throws IllegalArgumentException if it is less than 1
   */
  public void maxIdleConnections(int maxIdleConnections) {
    if (maxIdleConnections < 1) {
      throw new IllegalArgumentException("maxIdleConnections must be at least 1 but was " + maxIdleConnections + ".");
    }
    this.maxIdleConnections = maxIdleConnections;
  }

  /**
   * The lock table's name: the table given, else the namespace's, else {@link SqlFiles#DEFAULT_TABLE}.
   *
   * @throws IllegalStateException if neither an address nor a data source was given, or both; or both a namespace
   *     and a table
   */
  public String lockTable() {
    if ((address == null) == (dataSource == null)) {
      throw new IllegalStateException("Give either an address, e.g. address(\"" + addressExample + "\"), or a data"
          + " source, dataSource(pool), but not both.");
    }
    if (namespace != null && table != null) {
      throw new IllegalStateException("The namespace '" + namespace + "' and the table '" + table + "' both name"
          + " the lock table (the namespace names " + namespace + "_locks): give one of them.");
    }
    return table != null ? table : namespace != null ? namespace + "_locks" : SqlFiles.DEFAULT_TABLE;
  }

  /** The driver's login properties for the address: the credentials given, else the address's. */
  public Properties login() {
    return address.login(user, password);
  }

  /**
   * The data source's connections, or else Baton's own pool through {@code driver} (which messages call
   * {@code driverName}) with the driver's {@code properties} (asked for only then), each new connection set up by
   * {@code setup}.
   */
  public Connections connections(Driver driver, String driverName, Supplier<Properties> properties,
      ConnectionSetup setup) {
    return dataSource != null ? new DataSourceConnections(dataSource)
        : new PooledConnections(driver, driverName, address.jdbcUrl(), properties.get(), maxIdleConnections, setup);
  }

  /** How messages name the server: the data source's class, or the address without its parameters. */
  public String server() {
    return dataSource != null ? "the data source " + dataSource.getClass().getSimpleName() : address.display();
  }
}
