package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;

/** Connects to ZooKeeper; loaded only when the URI names ZooKeeper, so baton-zookeeper may be absent otherwise. */
final class ZooKeeperConnector {
  private ZooKeeperConnector() {}

  static LockClient connect(ConnectionSettings settings) {
    ZooKeeperLockClient.Builder builder = ZooKeeperLockClient.builder().connectString(settings.uri().address())
        .defaultOptions(settings.defaultOptions());
    settings.namespace().ifPresent(namespace -> builder.namespace("/" + namespace));
    settings.connectTimeout().ifPresent(builder::connectTimeout);
    settings.sessionTimeout().ifPresent(builder::sessionTimeout);
    settings.user().ifPresent(user -> builder.credentials(user, settings.password().orElseThrow()));
    settings.uri().compat().ifPresent(compat -> builder.compat(ZooKeeperLockClient.Compat.CURATOR));
    return builder.connect();
  }
}
