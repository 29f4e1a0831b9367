package dev.baton.testkit;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.servers.ProxiedTarget;
import dev.baton.torture.LockClientFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInfo;

/**
 * What every backend must do, whatever its store. A backend's test extends this class and says how to reach
 * its store and how to tamper with it:
 *
 * <pre>{@code
 * class RedisLockClientTest extends LockClientContract {
 *   @RegisterExtension
 *   static final RedisServerExtension redis = new RedisServerExtension();
 *
 *   public static final class Factory implements LockClientFactory {
 *     public LockClient connect(String target) { return RedisLockClient.connect(target); }
 *   }
 *
 *   protected Class<? extends LockClientFactory> factoryClass() { return Factory.class; }
 *   protected String target() { return redis.uri(); }
 *   ...
 * }
 * }</pre>
 *
 * <p>Every test uses a key of its own, so one store serves the whole class. After each test the suite closes
 * every client it made and kills every child JVM it started.
 */
public abstract class LockClientContract {
  private final List<LockClient> clients = new CopyOnWriteArrayList<>();
  private final List<ChildJvm> children = new CopyOnWriteArrayList<>();
  private final List<ProxiedTarget> proxies = new CopyOnWriteArrayList<>();
  private final Map<LockClient, ProxiedTarget> crashable = new ConcurrentHashMap<>();
  private String key;

  /** The factory the suite makes clients with, here and in child JVMs; it needs a public no-argument constructor. */
  protected abstract Class<? extends LockClientFactory> factoryClass();

  /** Where the store is, as the factory expects it. */
  protected abstract String target();

  /** Deletes the store's entry for a held key, as an operator or a premature expiry would. */
  protected abstract void removeEntryBehindOurBack(String key);

  /** How many entries the store has for the key: holders plus queued waiters. */
  protected abstract int entriesAtStore(String key);

  /**
   * A new client that {@link #crash} can stop, closed after the test. By default it connects through a
   * {@link ProxiedTarget}: a proxy in front of each loopback address of the {@link #target()}.
   */
  protected LockClient newCrashableClient() {
    ProxiedTarget proxied = ProxiedTarget.of(target());
    proxies.add(proxied);
    LockClient client = newClient(proxied.target());
    crashable.put(client, proxied);
    return client;
  }

  /**
   * Stops a client from {@link #newCrashableClient()} as a crashed process would: it releases nothing and renews
   * nothing from now on, and ends no session. By default its proxies cut it off the store.
   */
  protected void crash(LockClient client) {
    ProxiedTarget proxied = crashable.get(client);
    if (proxied == null) {
      throw new IllegalArgumentException(client + " was not made by newCrashableClient()");
    }
    proxied.cut();
  }

  /**
   * How long after its holder crashed (it releases nothing and renews nothing from then on) the store frees a
   * lock taken with {@code ttl}. By default the ttl itself: the store expires the entry at most one ttl after
   * its last renewal. A store whose entries live as long as the client's session or lease, not the lock's ttl,
   * returns that session's timeout or that lease's ttl, as its contract test configures it.
   */
  protected Duration crashFreeBound(Duration ttl) {
    return ttl;
  }

  /**
   * How many times the store's members have chosen a new leader so far (any count that grows by at least one per
   * election), for a store that starts its entries' expiry afresh when a new leader takes over: etcd's leader
   * extends every lease by its ttl. A crash test then allows one more {@link #crashFreeBound} per election during
   * its wait, and no more. 0 by default: a single server, or a store whose expiry no election restarts.
   */
  protected long leaderElections() {
    return 0;
  }

  /** Whether a child JVM can reach the store at {@link #target()}: not a store that lives in the test's own JVM. */
  protected boolean reachableFromOtherProcesses() {
    return true;
  }

  /**
   * Whether the clients take shared entries (read locks, semaphore permits). A client in a compatibility mode with a
   * library that has only exclusive locks refuses them, and the suite then skips its read-write lock and semaphore
   * groups.
   */
  protected boolean takesSharedEntries() {
    return true;
  }

  /**
   * Whether the clients deliver requests to release ({@link LockClient#requestRelease}). A client in a compatibility
   * mode whose holders could not hear them refuses them, and the suite then skips its release-request group.
   */
  protected boolean deliversReleaseRequests() {
    return true;
  }

  /**
   * Whether the store rewrites a held entry's holder record ({@link dev.baton.spi.LockBackend#rewritesHolders}), so
   * that a key passes between the threads of a client to a holder for other keys, the record rewritten to name them;
   * else such a holder takes the key at the store. Either way {@code status} shows the keys it is held for.
   */
  protected boolean rewritesHolderRecords() {
    return true;
  }

  /**
   * Whether the store keeps something now through which the client with {@code clientId} hears requests to release
   * (a subscription, a key, a watch), for the suite to check that a closed client leaves none. False by default:
   * a store whose listening ends with the client's connection by itself need not say, and the suite then checks the
   * client's threads only.
   */
  protected boolean listensForReleaseRequestsAtStore(String clientId) {
    return false;
  }

  /**
   * The options the suite's own acquires start from; a backend with variants (ZooKeeper's non-fair lock)
   * overrides it to run the suite against each. The factory's clients should use the same defaults.
   */
  protected LockOptions baseOptions() {
    return LockOptions.defaults();
  }

  /** A new client from {@link #factoryClass()}, closed after the test. */
  protected final LockClient newClient() {
    return newClient(target());
  }

  private LockClient newClient(String target) {
    LockClientFactory factory;
    try {
      factory = factoryClass().getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(factoryClass().getName() + " needs a public no-argument constructor.", e);
    }
    LockClient client = factory.connect(target);
    clients.add(client);
    return client;
  }

  /** The key of the running test, used by no other test. */
  protected final String key() {
    return key;
  }

  @BeforeEach
  final void chooseKey(TestInfo test) {
    String name = test.getTestMethod().map(Method::getName).orElse("test");
    key = "contract/" + name + "/" + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  @AfterEach
  final void closeEverything() {
    try {
      ContractGroup.closeAll(children);
    } finally {
      try {
        ContractGroup.closeAll(clients);
      } finally {
        ContractGroup.closeAll(proxies);
        crashable.clear();
      }
    }
  }

  /** {@link ContractMutualExclusion}. */
  @Nested
  class MutualExclusion extends ContractMutualExclusion {
    MutualExclusion() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractLocalHandover}. */
  @Nested
  class LocalHandover extends ContractLocalHandover {
    LocalHandover() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractReentrancy}. */
  @Nested
  class Reentrancy extends ContractReentrancy {
    Reentrancy() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractTimeouts}. */
  @Nested
  class Timeouts extends ContractTimeouts {
    Timeouts() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractCrashesAndLosses}. */
  @Nested
  class CrashesAndLosses extends ContractCrashesAndLosses {
    CrashesAndLosses() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractWaiting}. */
  @Nested
  class Waiting extends ContractWaiting {
    Waiting() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractAsyncWaiting}. */
  @Nested
  class AsyncWaiting extends ContractAsyncWaiting {
    AsyncWaiting() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractReleasing}. */
  @Nested
  class Releasing extends ContractReleasing {
    Releasing() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractStatusAndList}. */
  @Nested
  class StatusAndList extends ContractStatusAndList {
    StatusAndList() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractBadInput}. */
  @Nested
  class BadInput extends ContractBadInput {
    BadInput() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractReadWriteLock}. */
  @Nested
  class ReadWriteLock extends ContractReadWriteLock {
    ReadWriteLock() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractSemaphore}. */
  @Nested
  class Semaphore extends ContractSemaphore {
    Semaphore() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractMultiLock}. */
  @Nested
  class MultiLock extends ContractMultiLock {
    MultiLock() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractLeadership}. */
  @Nested
  class LeaderElection extends ContractLeadership {
    LeaderElection() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractReleaseRequests}. */
  @Nested
  class ReleaseRequests extends ContractReleaseRequests {
    ReleaseRequests() {
      super(LockClientContract.this);
    }
  }

  /** {@link ContractLinger}. */
  @Nested
  class Linger extends ContractLinger {
    Linger() {
      super(LockClientContract.this);
    }
  }

  /** The child JVMs of the running test, killed after it. */
  final List<ChildJvm> children() {
    return children;
  }

}
