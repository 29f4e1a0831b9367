package dev.baton.spring.boot;

import dev.baton.spi.Redaction;
import java.util.Arrays;
import java.util.List;

/**
 * Which store the application's client locks on and why, as the startup log and the health details say it.
 *
 * @param uri the store's URI without its secrets, or null where the store is not given by a URI
 * @param chosenBy what chose it: {@code baton.backend}, the application's DataSource, or the application's own bean
 */
record StoreChoice(String uri, String chosenBy) {
  static final String CLIENT_BEAN = "batonLockClient";
  static final String DATA_SOURCE_CLIENT_BEAN = "batonDataSourceLockClient";

  /** The choice of {@code baton.backend}. */
  static StoreChoice backend(BatonProperties properties) {
    return new StoreChoice(Redaction.withoutSecrets(properties.getBackend().strip()), "baton.backend");
  }

  /** The choice of the application's DataSource. */
  static StoreChoice dataSource(BatonProperties properties) {
    return new StoreChoice(null, "the application's DataSource, as baton.backend is "
        + (properties.namesDataSource() ? BatonProperties.DATA_SOURCE : "unset"));
  }

  /** The choice behind the application's client, known by the names of its LockClient beans. */
  static StoreChoice of(BatonProperties properties, String... clientBeanNames) {
    List<String> names = Arrays.asList(clientBeanNames);
    if (names.contains(CLIENT_BEAN)) {
      return backend(properties);
    }
    return names.contains(DATA_SOURCE_CLIENT_BEAN) ? dataSource(properties)
        : new StoreChoice(null, "the application's own LockClient bean");
  }

  /** The startup log's line. */
  String describe() {
    return uri == null ? "Baton locks on " + chosenBy : "Baton locks on " + uri + ", chosen by " + chosenBy;
  }
}
