package dev.baton.connect;

import dev.baton.LockClient;
import dev.baton.etcd.EtcdLockClient;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Connects to etcd; loaded only when the URI names etcd, so baton-etcd may be absent otherwise. */
final class EtcdConnector {
  private EtcdConnector() {}

  static LockClient connect(ConnectionSettings settings) {
    EtcdLockClient.Builder builder = EtcdLockClient.builder().endpoints(endpoints(settings.uri()))
        .defaultOptions(settings.defaultOptions());
    settings.namespace().ifPresent(namespace -> builder.namespace("/" + namespace + "/"));
    settings.commandTimeout().ifPresent(builder::commandTimeout);
    settings.sessionTimeout().ifPresent(builder::sessionTimeout);
    settings.user().ifPresent(user -> builder.credentials(user, settings.password().orElseThrow()));
    settings.trustedCa().ifPresent(builder::trustedCa);
    settings.clientCertificate().ifPresent(certificate -> builder.clientCertificate(certificate,
        settings.clientKey().orElseThrow()));
    settings.uri().compat().ifPresent(compat -> builder.compat(EtcdLockClient.Compat.ETCD));
    return builder.connect();
  }

  /** {@code etcd://a:2379,b:2379} as the endpoints {@code http://a:2379,http://b:2379}. */
  static String endpoints(BackendUri uri) {
    String scheme = uri.scheme().equals("https") ? "https://" : "http://";
    return Arrays.stream(uri.address().split(",")).map(String::trim)
        .map(member -> member.contains("://") ? member : scheme + member)
        .collect(Collectors.joining(","));
  }
}
