package dev.baton.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.WatchGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.vertx.core.Vertx;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * gRPC stubs on a jetcd client's own channel, with its credentials. jetcd 0.7 opens one watch stream per
 * watcher and only half-closes it on {@code close()}, which etcd does not take as the end of the stream: the
 * server keeps the stream, and a watcher whose creation was still in flight, until the connection goes
 * (jetcd#1510). Baton's waiters therefore share one watch stream per client that they drive themselves; jetcd
 * has no public way to reach its channel, hence the reflection here, checked by the tests on the pinned jetcd. The
 * same channel carries the deletes that must be sent once ({@link #kv}) and the transactions that jetcd's API cannot
 * express ({@link #kvAsync}).
 *
 * <p>The same reflection lets a close wait for jetcd's Vert.x event loops, which {@link Client#close()} only asks to
 * stop ({@link #close}).
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

  /** A blocking KV stub, whose calls jetcd does not retry ({@link EntryDeletes}). */
  static KVGrpc.KVBlockingStub kv(Client client) {
    return stub(client, KVGrpc::newBlockingStub);
  }

  /**
   * An asynchronous KV stub whose answers are handed over on the thread that reads them from the connection, with no
   * hop through an executor: its callers only complete a future with them ({@link EntryPuts}).
   */
  static KVGrpc.KVStub kvAsync(Client client) {
    return stub(client, KVGrpc::newStub).withExecutor(Runnable::run);
  }

  /**
   * Closes {@code client} and waits, at most {@code bound}, for its event loops to end. Threads left in a native
   * poll when the JVM exits hold the exit back by 300 ms (HotSpot waits for them), which a {@code baton exec} on etcd
   * paid at every other run; and a closed client should leave no thread behind.
   */
  static void close(Client client, Duration bound) {
    Vertx vertx;
    try {
      Object connections = connections(client);
      Field field = connections.getClass().getDeclaredField("vertx");
      field.setAccessible(true);
      vertx = (Vertx) field.get(connections); // null until jetcd made its first channel
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw mismatch(e);
    } finally {
      client.close();
    }
    if (vertx == null) {
      return;
    }
    // Vert.x's close completes before its event loops have ended: wait for those.
    vertx.close();
    try {
      vertx.nettyEventLoopGroup().terminationFuture().await(bound.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T stub(Client client, Function<ManagedChannel, T> factory) {
    try {
      Object connections = connections(client);
      Method newStub = connections.getClass().getDeclaredMethod("newStub", Function.class);
      newStub.setAccessible(true);
      return (T) newStub.invoke(connections, factory);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw mismatch(e);
    }
  }

  private static Object connections(Client client) throws ReflectiveOperationException {
    Field field = client.getClass().getDeclaredField("connectionManager");
    field.setAccessible(true);
    return field.get(client);
  }

  private static IllegalStateException mismatch(Exception e) {
    return new IllegalStateException("This jetcd version (" + Client.class.getPackage().getImplementationVersion()
        + ") does not match the one Baton was built against: use the jetcd that baton-etcd depends on", e);
  }
}
