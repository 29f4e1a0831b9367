package dev.baton.spring.boot;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.PermissionDeniedException;
import java.util.function.Supplier;

/**
 * Connects the starter's client at startup and turns what can go wrong there into a {@link BatonStartupException}
 * naming the property, the store without its secrets and what to do.
 */
final class StoreConnections {
  private StoreConnections() {}

  /**
   * @param property the property that chose the store ({@code baton.backend})
   * @param store the store as shown to people: a URI without its secrets, or "the application's DataSource"
   */
  static LockClient connect(String property, String store, Supplier<LockClient> connection) {
    try {
      return connection.get();
    } catch (BackendUnavailableException e) {
      throw new BatonStartupException(property, "Baton could not reach " + store + " within the connect timeout: "
          + e.getMessage(), "Start the store, or set " + property + " to one that is reachable from here;"
          + " baton.connect-timeout sets how long the start waits for it.", e);
    } catch (PermissionDeniedException e) {
      throw new BatonStartupException(property, store + " refused Baton's credentials: " + e.getMessage(),
          "Fix the credentials: the user and password in baton.backend (redis://user:password@host:port,"
          + " postgresql://user:password@host:port/db, mysql://user:password@host:port/db), baton.username and"
          + " baton.password (ZooKeeper, etcd), or"
          + " spring.datasource.username and spring.datasource.password for the DataSource.", e);
    } catch (BackendSetupException e) {
      throw new BatonStartupException(property, store + " is not set up for Baton: " + e.getMessage(),
          "Set the store up as said above (on PostgreSQL, run the DDL of docs/postgresql.md as its owner; on MySQL"
          + " and MariaDB, that of docs/mysql.md), or set "
          + property + " to a store that is.", e);
    } catch (IllegalArgumentException e) {
      throw new BatonStartupException(property, e.getMessage(), "Change " + property + " as said above.", e);
    } catch (IllegalStateException e) {
      throw new BatonStartupException(property, e.getMessage(), "Add the module the message names to the"
          + " application's dependencies, or set " + property + " to a store whose module is there.", e);
    }
  }
}
