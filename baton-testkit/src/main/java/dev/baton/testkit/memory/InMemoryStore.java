package dev.baton.testkit.memory;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.engine.memory.MemoryStore;
import dev.baton.memory.MemoryLockClient;
import dev.baton.spi.LockBackend;
import dev.baton.spi.Ticker;
import dev.baton.torture.LockClientFactory;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test's own in-memory store: baton-core's {@code memory://} store under a name no other test uses, kept until
 * {@link #close}, with the hooks a test of the engine needs: the store's time ({@link #create(Ticker)}), a client
 * {@link #cutOff cut off} as a crash of its process would, a holder {@link #removeHolder removed} behind its back.
 * Clients connect with {@link #connect}, or through {@link Factory} with the store's {@link #target()}, as the
 * contract suite does.
 */
public final class InMemoryStore implements AutoCloseable {
  private static final AtomicInteger NEXT = new AtomicInteger();

  private final MemoryStore store;
  private final AtomicBoolean closed = new AtomicBoolean();

  private InMemoryStore(MemoryStore store) {
    this.store = store;
  }

  /** A new, empty store on the system clock. */
  public static InMemoryStore create() {
    return new InMemoryStore(MemoryStore.create(nextName(), null));
  }

  /**
   * A new, empty store that expires entries by {@code ticker}, whose clients' engines run on it too: a test moves
   * time for both at once (a {@link dev.baton.memory.FakeTicker}).
   */
  public static InMemoryStore create(Ticker ticker) {
    return new InMemoryStore(MemoryStore.create(nextName(), Objects.requireNonNull(ticker, "ticker")));
  }

  private static String nextName() {
    return "testkit-" + NEXT.incrementAndGet();
  }

  /** Where {@link Factory}, or {@link MemoryLockClient#connect(String)}, finds this store: {@code memory://testkit-N}. */
  public String target() {
    return store.uri();
  }

  /** A new client of this store. */
  public LockClient connect(LockOptions defaults) {
    return store.connect(defaults);
  }

  /** A new connection to this store without an engine around it, for tests of the SPI; closing it lets the store go. */
  public LockBackend newBackend() {
    return store.newBackend();
  }

  /** From now on, every call of the client with this id fails as an unreachable store does. */
  public void cutOff(String clientId) {
    store.cutOff(clientId);
  }

  /** Deletes the entries that hold {@code key}, as an operator would; their holders learn it at their next renewal. */
  public void removeHolder(String key) {
    store.removeHolder(key);
  }

  /** Whether the client with this id listens for requests to release its entries. */
  public boolean listensForReleaseRequests(String clientId) {
    return store.listensForReleaseRequests(clientId);
  }

  /** How many entries the store keeps for {@code key}: its holders and its waiters. */
  public int entries(String key) {
    return store.entries(key);
  }

  /** Lets the store go once its clients are closed too. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      store.close();
    }
  }

  @Override
  public String toString() {
    return "InMemoryStore{" + target() + '}';
  }

  /** Connects to the store its target names, for the contract suite. */
  public static final class Factory implements LockClientFactory {
    @Override
    public LockClient connect(String target) {
      return MemoryLockClient.connect(target);
    }
  }
}
