package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.MariaDbServerExtension;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application's connections go back to its pool as they came: Baton runs its calls in auto-commit mode and its
 * transactions at READ COMMITTED, and puts back a connection that came without auto-commit, at REPEATABLE READ, as it
 * was (a pool need not reset what a borrower changed, and the application's next transaction on it would run so).
 */
class MySqlDataSourceSettingsTest {
  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  /** How each connection was when Baton gave it back: auto-commit, isolation. */
  private final List<String> givenBack = new CopyOnWriteArrayList<>();

  @Test
  void connectionsGoBackWithTheAutoCommitAndIsolationTheyCameWith() throws Exception {
    DataSource application = new RecordingDataSource(MySqlDataSourceClientFactory.dataSource(mariadb.uri()));
    try (LockClient holder = MySqlLockClient.builder().dataSource(application).connect();
        LockClient waiter = MySqlLockClient.builder().dataSource(application).connect()) {
      Lease held = holder.lock("settings/key").acquire();
      FutureTask<Lease> next = new FutureTask<>(() -> waiter.lock("settings/key").acquire(Duration.ofSeconds(20)));
      new Thread(next, "settings-waiter").start();
      held.close();
      next.get(20, TimeUnit.SECONDS).close();
    }
    assertThat(givenBack).isNotEmpty().allMatch(
        state -> state.equals("autoCommit=false isolation=" + Connection.TRANSACTION_REPEATABLE_READ), "as it came");
  }

  /** Connections without auto-commit at REPEATABLE READ, as an application's pool may hand them out. */
  private final class RecordingDataSource implements DataSource {
    private final DataSource physical;

    RecordingDataSource(DataSource physical) {
      this.physical = physical;
    }

    @Override
    public Connection getConnection() throws SQLException {
      Connection connection = physical.getConnection();
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
          (proxy, method, args) -> {
            if (method.getName().equals("close")) {
              givenBack.add("autoCommit=" + connection.getAutoCommit() + " isolation="
                  + connection.getTransactionIsolation());
            }
            try {
              return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      throw new SQLException("not used");
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
