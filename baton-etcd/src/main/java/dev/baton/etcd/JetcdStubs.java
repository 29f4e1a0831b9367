package dev.baton.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.api.WatchGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.function.Function;

/**
 * gRPC stubs on a jetcd client's own channel, with its credentials. jetcd 0.7 opens one watch stream per
 * watcher and only half-closes it on {@code close()}, which etcd does not take as the end of the stream: the
 * server keeps the stream, and a watcher whose creation was still in flight, until the connection goes
 * (jetcd#1510). Baton's waiters therefore share one watch stream per client that they drive themselves; jetcd
 * has no public way to reach its channel, hence the reflection here, checked by the tests on the pinned jetcd.
 */
final class JetcdStubs {
  private static final Metadata.Key<String> HAS_LEADER = Metadata.Key.of("hasleader", Metadata.ASCII_STRING_MARSHALLER);

  private JetcdStubs() {}

  /** A watch stub whose streams etcd ends when the member it reaches has no leader, as etcd's own client does. */
  static WatchGrpc.WatchStub watch(Client client) {
    Metadata requireLeader = new Metadata();
    requireLeader.put(HAS_LEADER, "true");
    return stub(client, WatchGrpc::newStub)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(requireLeader));
  }

  @SuppressWarnings("unchecked")
  private static <T> T stub(Client client, Function<ManagedChannel, T> factory) {
    try {
      Field field = client.getClass().getDeclaredField("connectionManager");
      field.setAccessible(true);
      Object connections = field.get(client);
      Method newStub = connections.getClass().getDeclaredMethod("newStub", Function.class);
      newStub.setAccessible(true);
      return (T) newStub.invoke(connections, factory);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("This jetcd version (" + Client.class.getPackage().getImplementationVersion()
          + ") does not match the one Baton was built against: use the jetcd that baton-etcd depends on", e);
    }
  }
}
