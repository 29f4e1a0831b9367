package dev.baton.spring.boot;

import dev.baton.internal.Redaction;


/**
 * Which store the application's client locks on and why, as the startup log and the health details say it.
 *
 * @param uri the store's URI without its secrets, or null where the store is not given by a URI
 * @param chosenBy what chose it: {@code baton.backend}, one of the application's own connections, or the
 *     application's own bean
 */
record StoreChoice(String uri, String chosenBy) {
  /** The choice behind a client the application declares itself. */
  static final StoreChoice OWN_CLIENT = new StoreChoice(null, "the application's own LockClient bean");

  /** A choice of {@code uri}, shown without its secrets. */
  static StoreChoice of(String uri, String chosenBy) {
    return new StoreChoice(uri == null ? null : Redaction.withoutSecrets(uri.strip()), chosenBy);
  }

  /** The choice of {@code baton.backend}. */
  static StoreChoice backend(BatonProperties properties) {
    return of(properties.getBackend(), "baton.backend");
  }

  /** The choice of the application's DataSource. */
  static StoreChoice dataSource(BatonProperties properties) {
    return new StoreChoice(null, "the application's DataSource, as baton.backend is "
        + (properties.namesDataSource() ? BatonProperties.DATA_SOURCE : "unset"));
  }

  /** The startup log's line. */
  String describe() {
    return uri == null ? "Baton locks on " + chosenBy : "Baton locks on " + uri + ", chosen by " + chosenBy;
  }
}
