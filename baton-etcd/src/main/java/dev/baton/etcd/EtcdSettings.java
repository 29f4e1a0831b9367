package dev.baton.etcd;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How a client reaches etcd.
 *
 * @param user the etcd user, or null without authentication
 * @param trustedCa the PEM certificate of the authority that signed the members' certificates, or null to trust
 *     the JVM's default authorities (https endpoints only)
 * @param clientCertificate the PEM certificate the client shows members that ask for one, or null
 * @param clientKey the PKCS#8 PEM private key of {@code clientCertificate}, or null
 * @param etcdCompatible whether entries are named as etcd's own lock names them ({@link EtcdKeys})
 */
record EtcdSettings(List<URI> endpoints, String user, String password, String namespace, Duration sessionTimeout,
    Duration commandTimeout, Path trustedCa, Path clientCertificate, Path clientKey, boolean etcdCompatible) {
  /** Whether the members are reached over TLS: every endpoint is https. */
  boolean tls() {
    return "https".equals(endpoints.get(0).getScheme());
  }
}
