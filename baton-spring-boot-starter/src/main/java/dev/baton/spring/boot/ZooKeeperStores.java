package dev.baton.spring.boot;

/**
 * The ZooKeeper an application configures for itself, as a Baton store: the connect string of Spring Cloud
 * Zookeeper's {@value #CONNECT_STRING} property, or of the application's {@code CuratorFramework} bean. Curator's
 * namespace and credentials are not carried over: Baton's locks live under {@code baton.namespace}, and
 * {@code baton.username} and {@code baton.password} give a digest user.
 */
final class ZooKeeperStores {
  static final String CONNECT_STRING = "spring.cloud.zookeeper.connect-string";

  private ZooKeeperStores() {}

  /** The store of {@value #CONNECT_STRING}. */
  static ApplicationStore ofConnectString(String connectString) {
    return new ApplicationStore("zookeeper://" + connectString.strip(), null, null, CONNECT_STRING, CONNECT_STRING);
  }

  /** The store of the application's Curator client, which connects to {@code connectString}. */
  static ApplicationStore ofCurator(String connectString) {
    return new ApplicationStore("zookeeper://" + connectString.strip(), null, null, "baton.backend",
        "the application's CuratorFramework bean");
  }
}
