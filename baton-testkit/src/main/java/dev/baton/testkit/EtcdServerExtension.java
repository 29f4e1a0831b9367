package dev.baton.testkit;

import dev.baton.servers.EtcdServer;
import dev.baton.servers.TlsCertificates;

/**
 * Runs an {@link EtcdServer} for the tests of one class: started before the first test, stopped (and its data
 * deleted) after the last. Register it in a static field, so that it lives as long as the class:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EtcdServerExtension etcd = new EtcdServerExtension();
 * }</pre>
 *
 * <p>Nested test classes share the outer class's server.
 */
public final class EtcdServerExtension extends ClassScopedServer {
  private final EtcdServer server;

  /** An extension whose server serves clients over plain HTTP. */
  public EtcdServerExtension() {
    this(new EtcdServer());
  }

  private EtcdServerExtension(EtcdServer server) {
    this.server = server;
  }

  /** An extension whose server serves clients over TLS only and asks them for a certificate. */
  public static EtcdServerExtension withTls() {
    return new EtcdServerExtension(EtcdServer.withTls());
  }

  @Override
  void startServer() {
    server.start();
  }

  @Override
  void stopServer() {
    server.close();
  }

  /** The server, e.g. to {@link EtcdServer#restart()} or {@link EtcdServer#kill()} it. */
  public EtcdServer server() {
    return server;
  }

  /** The certificates of a server made {@link #withTls()}. */
  public TlsCertificates tls() {
    return server.tls();
  }

  /** The server's address for an etcd client: {@code http://127.0.0.1:PORT}, or {@code https://} with TLS. */
  public String endpoint() {
    return server.endpoint();
  }
}
