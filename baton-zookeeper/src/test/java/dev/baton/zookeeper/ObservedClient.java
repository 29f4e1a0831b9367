package dev.baton.zookeeper;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.servers.ProxiedTarget;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LossListener;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.ZooDefs;

/**
 * A ZooKeeper lock client that a test watches from the inside, built as {@link ZooKeeperLockClient} builds one
 * but with the backend wrapped. It counts the wake-ups its watches deliver to its waiting acquires: the backend
 * signals one for each watch event ZooKeeper delivers, so this is the number of watch events the server sent the
 * client's session. It tells its session id, for the server's per-connection counters. And it dies as a process
 * does, releasing nothing: it connects through a {@link ProxiedTarget}, which then cuts it off.
 */
final class ObservedClient implements AutoCloseable {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final ProxiedTarget proxied;
  private final ZooKeeperBackend zk;
  private final LockClient client;
  private final AtomicInteger wakeUps = new AtomicInteger();

  private ObservedClient(ProxiedTarget proxied, ZooKeeperBackend zk) {
    this.proxied = proxied;
    this.zk = zk;
    this.client = ClientFactory.newClient(new Counting(), LockOptions.defaults());
  }

  /** Connects to {@code connectString} with this session timeout and Baton's default namespace. */
  static ObservedClient connect(String connectString, Duration sessionTimeout) {
    ProxiedTarget proxied = ProxiedTarget.of(connectString);
    try {
      return new ObservedClient(proxied, ZooKeeperBackend.connect(new ZooKeeperSettings(proxied.target(),
          sessionTimeout, CONNECT_TIMEOUT, null, ZooDefs.Ids.OPEN_ACL_UNSAFE, ZooKeeperLockClient.DEFAULT_NAMESPACE,
        ZooKeeperLockClient.Compat.NONE)));
    } catch (RuntimeException e) {
      proxied.close();
      throw e;
    }
  }

  LockClient client() {
    return client;
  }

  /** How many wake-ups the client's watches have delivered so far. */
  int wakeUps() {
    return wakeUps.get();
  }

  /** The id of the client's ZooKeeper session. */
  long sessionId() {
    return zk.connected().getSessionId();
  }

  /** Crashes: the session stays at the server, with the client's nodes, until it times out. */
  void crash() {
    proxied.cut();
  }

  /**
   * Exits without releasing anything but with its ZooKeeper session closed, so that the server deletes the
   * session's nodes at once; the client is then cut off, renewing and releasing nothing.
   */
  void closeSessionAndStop() {
    zk.close();
    proxied.cut();
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      proxied.close();
    }
  }

  /** The ZooKeeper backend, counting the wake-ups it signals to the engine. */
  private final class Counting implements LockBackend {
    @Override
    public String name() {
      return zk.name();
    }

    @Override
    public void checkKey(String key) {
      zk.checkKey(key);
    }

    @Override
    public Duration maxTtl() {
      return zk.maxTtl();
    }

    @Override
    public LockStatus status(String key) {
      return zk.status(key);
    }

    @Override
    public List<LockStatus> list(String keyPrefix, int limit) {
      return zk.list(keyPrefix, limit);
    }

    @Override
    public Attempt newAttempt(AcquireRequest request) {
      Attempt attempt = zk.newAttempt(request);
      return new Attempt() {
        @Override
        public Outcome tryAcquire(WakeUp wakeUp) {
          return attempt.tryAcquire(() -> {
            wakeUps.incrementAndGet();
            wakeUp.signal();
          });
        }

        @Override
        public void abandon() {
          attempt.abandon();
        }
      };
    }

    @Override
    public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
      return zk.renew(grant, expiry);
    }

    @Override
    public boolean release(Grant grant) {
      return zk.release(grant);
    }

    @Override
    public CompletionStage<Boolean> releaseInOrder(Grant grant) {
      return zk.releaseInOrder(grant);
    }

    @Override
    public void setLossListener(LossListener listener) {
      zk.setLossListener(listener);
    }

    @Override
    public void close() {
      zk.close();
    }
  }
}
