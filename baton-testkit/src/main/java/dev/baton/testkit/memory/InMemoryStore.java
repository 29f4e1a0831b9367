package dev.baton.testkit.memory;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.KeyOrder;
import dev.baton.spi.WakeUp;
import dev.baton.testkit.LockClientFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lock store in the test's own JVM, with the guarantees Baton asks of a real one: one holder per key, a fencing
 * token that grows with every grant, entries that expire when their holder stops renewing them, waiters queued in
 * order of arrival for fair acquires, and wake-ups when a key is freed. Clients connect with {@link #connect}, or
 * through {@link Factory} with the store's {@link #target()}, as the contract suite does.
 *
 * <p>Time is the store's {@link Ticker}. A client can be {@link #cutOff cut off}, as a crash of its process would:
 * its calls fail from then on, and its entries stay until they expire.
 */
public final class InMemoryStore implements AutoCloseable {
  private static final String SCHEME = "memory://";
  private static final Map<String, InMemoryStore> OPEN = new ConcurrentHashMap<>();
  private static final AtomicInteger NEXT = new AtomicInteger();

  private final String target;
  private final Ticker ticker;
  private final Map<String, KeyState> keys = new HashMap<>();
  private final Map<String, Long> lastTokens = new HashMap<>();
  private final Set<String> cutOffClients = ConcurrentHashMap.newKeySet();

  private InMemoryStore(String target, Ticker ticker) {
    this.target = target;
    this.ticker = ticker;
  }

  /** A new, empty store on the system clock. */
  public static InMemoryStore create() {
    return create(Ticker.SYSTEM);
  }

  /** A new, empty store that expires entries by {@code ticker}. */
  public static InMemoryStore create(Ticker ticker) {
    InMemoryStore store = new InMemoryStore(SCHEME + NEXT.incrementAndGet(), Objects.requireNonNull(ticker, "ticker"));
    OPEN.put(store.target, store);
    return store;
  }

  /**
   * The open store {@code target} names.
   *
   * @throws IllegalArgumentException if no open store has that target
   */
  public static InMemoryStore at(String target) {
    InMemoryStore store = OPEN.get(target);
    if (store == null) {
      throw new IllegalArgumentException("No in-memory store is open at '" + target + "'; create one with "
          + "InMemoryStore.create() and use its target().");
    }
    return store;
  }

  /** Where {@link Factory} finds this store: {@code memory://N}. */
  public String target() {
    return target;
  }

  /** A new client of this store. */
  public LockClient connect(LockOptions defaults) {
    return ClientFactory.newClient(new InMemoryBackend(this), defaults);
  }

  /** From now on, every call of the client with this id fails as an unreachable store does. */
  public void cutOff(String clientId) {
    cutOffClients.add(clientId);
  }

  /** Deletes the entry that holds {@code key}, as an operator would; its holder learns it at its next renewal. */
  public synchronized void removeHolder(String key) {
    KeyState state = keys.get(key);
    if (state != null && state.holder != null) {
      state.holder = null;
      freed(key, state);
    }
  }

  /** How many entries the store keeps for {@code key}: its holder and its waiters. */
  public synchronized int entries(String key) {
    KeyState state = keys.get(key);
    if (state == null) {
      return 0;
    }
    expire(state, ticker.read());
    return (state.holder == null ? 0 : 1) + state.waiters.size();
  }

  @Override
  public void close() {
    OPEN.remove(target);
  }

  @Override
  public String toString() {
    return "InMemoryStore{" + target + '}';
  }

  void checkReachable(String ownerId) {
    int colon = ownerId.indexOf(':');
    if (colon > 0 && cutOffClients.contains(ownerId.substring(0, colon))) {
      throw new BackendUnavailableException("The client of " + ownerId + " is cut off " + this + ".");
    }
  }

  /**
   * One try of an acquisition. Granted if no one holds the key and no fair waiter is ahead (any fair waiter, for a
   * non-fair acquire, which keeps no place in line); otherwise the attempt waits, and counts as a waiter, with its
   * {@code wakeUp} signalled when the key is freed.
   *
   * @return the grant, or null with the attempt waiting
   */
  synchronized Grant tryAcquire(AcquireRequest request, WakeUp wakeUp) {
    checkReachable(request.ownerId());
    long now = ticker.read();
    KeyState state = keys.computeIfAbsent(request.key(), k -> new KeyState());
    expire(state, now);
    if (state.holder == null && noFairWaiterAhead(state, request)) {
      state.waiters.remove(request.ownerId());
      long token = lastTokens.merge(request.key(), 1L, Long::sum);
      state.holder = new Holder(request.ownerId(), request.ownerRecord(), token, now + request.expiry().toNanos());
      state.othersWaited = false;
      return new InMemoryGrant(request, token);
    }
    if (request.mayWait()) {
      Waiter waiter = state.waiters.get(request.ownerId());
      if (waiter == null) {
        state.waiters.put(request.ownerId(), new Waiter(request.fair(), wakeUp, now + request.ttl().toNanos()));
      } else {
        waiter.expiresAt = now + request.ttl().toNanos();
      }
    }
    if (state.holder != null) {
      state.othersWaited = true;
    }
    return null;
  }

  /** How long a waiter may wait for a wake-up before it tries again: until the holder's expiry, a third of its ttl at most. */
  synchronized Duration nextTryWithin(AcquireRequest request) {
    KeyState state = keys.get(request.key());
    long third = request.ttl().toNanos() / 3;
    if (state == null || state.holder == null) {
      return Duration.ofNanos(third);
    }
    return Duration.ofNanos(Math.max(0, Math.min(third, state.holder.expiresAt - ticker.read())));
  }

  /** Ends an attempt's wait: it no longer counts as a waiter. With {@code orGrant}, also deletes its grant if it has one. */
  synchronized void leave(AcquireRequest request, boolean orGrant) {
    KeyState state = keys.get(request.key());
    if (state == null) {
      return;
    }
    Waiter left = state.waiters.remove(request.ownerId());
    boolean released = orGrant && state.holder != null && state.holder.ownerId.equals(request.ownerId());
    if (released) {
      state.holder = null;
    }
    if (released || (left != null && left.fair)) {
      freed(request.key(), state); // the next fair waiter may be first in line now
    } else {
      forgetIfUnused(request.key(), state);
    }
  }

  synchronized boolean renew(Grant grant, Duration expiry) {
    checkReachable(grant.request().ownerId());
    Holder holder = holderOf(grant);
    if (holder == null) {
      return false;
    }
    holder.expiresAt = ticker.read() + expiry.toNanos();
    return true;
  }

  synchronized boolean release(Grant grant) {
    checkReachable(grant.request().ownerId());
    if (holderOf(grant) == null) {
      return false;
    }
    KeyState state = keys.get(grant.request().key());
    state.holder = null;
    freed(grant.request().key(), state);
    return true;
  }

  /** Keeps the entry for {@code expiry} more if no other client waited during this holding, and releases it otherwise. */
  synchronized ChainEnd keepUnlessOthersWait(Grant grant, Duration expiry) {
    checkReachable(grant.request().ownerId());
    Holder holder = holderOf(grant);
    if (holder == null) {
      return ChainEnd.GONE;
    }
    KeyState state = keys.get(grant.request().key());
    if (state.othersWaited || !state.waiters.isEmpty()) {
      state.holder = null;
      freed(grant.request().key(), state);
      return ChainEnd.RELEASED;
    }
    holder.expiresAt = ticker.read() + expiry.toNanos();
    return ChainEnd.KEPT;
  }

  synchronized LockStatus status(String key) {
    KeyState state = keys.get(key);
    if (state == null) {
      return LockStatus.free(key, 0);
    }
    long now = ticker.read();
    expire(state, now);
    if (state.holder == null) {
      return LockStatus.free(key, state.waiters.size());
    }
    return HolderRecord.read(state.holder.record).held(key, state.holder.token,
        Duration.ofNanos(Math.max(0, state.holder.expiresAt - now)), state.waiters.size());
  }

  synchronized List<LockStatus> list(String keyPrefix, int limit) {
    List<String> held = new ArrayList<>();
    long now = ticker.read();
    for (Map.Entry<String, KeyState> entry : keys.entrySet()) {
      expire(entry.getValue(), now);
      if (entry.getKey().startsWith(keyPrefix) && entry.getValue().holder != null) {
        held.add(entry.getKey());
      }
    }
    held.sort(KeyOrder.BY_CODE_POINT);
    return held.stream().limit(limit).map(this::status).toList();
  }

  private Holder holderOf(Grant grant) {
    KeyState state = keys.get(grant.request().key());
    if (state == null) {
      return null;
    }
    expire(state, ticker.read());
    Holder holder = state.holder;
    return holder != null && holder.ownerId.equals(grant.request().ownerId()) && holder.token == grant.fencingToken()
        ? holder : null;
  }

  /** Drops the holder and the waiters whose time has passed; the waiters left are woken when the holder goes. */
  private void expire(KeyState state, long now) {
    if (state.holder != null && state.holder.expiresAt - now <= 0) {
      state.holder = null;
      state.waiters.values().forEach(waiter -> waiter.wakeUp.signal());
    }
    state.waiters.values().removeIf(waiter -> waiter.expiresAt - now <= 0);
  }


  /** The key was freed or its queue moved: every waiter is woken (signals only set a flag), the key forgotten if unused. */
  private void freed(String key, KeyState state) {
    state.waiters.values().forEach(waiter -> waiter.wakeUp.signal());
    forgetIfUnused(key, state);
  }

  private void forgetIfUnused(String key, KeyState state) {
    if (state.holder == null && state.waiters.isEmpty()) {
      keys.remove(key);
    }
  }

  private static boolean noFairWaiterAhead(KeyState state, AcquireRequest request) {
    for (Map.Entry<String, Waiter> entry : state.waiters.entrySet()) {
      if (entry.getKey().equals(request.ownerId())) {
        return true;
      }
      if (entry.getValue().fair) {
        return false;
      }
    }
    return true;
  }

  /** What the store keeps for a key: its holder, if any, and its waiters in order of arrival. */
  private static final class KeyState {
    private Holder holder;
    private final LinkedHashMap<String, Waiter> waiters = new LinkedHashMap<>();
    /** Whether another acquisition tried while the holder held: then a chain of local hand-overs ends here. */
    private boolean othersWaited;
  }

  private static final class Holder {
    private final String ownerId;
    private final String record;
    private final long token;
    private long expiresAt;

    private Holder(String ownerId, String record, long token, long expiresAt) {
      this.ownerId = ownerId;
      this.record = record;
      this.token = token;
      this.expiresAt = expiresAt;
    }
  }

  private static final class Waiter {
    private final boolean fair;
    private final WakeUp wakeUp;
    private long expiresAt;

    private Waiter(boolean fair, WakeUp wakeUp, long expiresAt) {
      this.fair = fair;
      this.wakeUp = wakeUp;
      this.expiresAt = expiresAt;
    }
  }

  private record InMemoryGrant(AcquireRequest request, long fencingToken) implements Grant {}

  /** Connects to the open store its target names, for the contract suite and child JVMs of the same test. */
  public static final class Factory implements LockClientFactory {
    @Override
    public LockClient connect(String target) {
      return at(target).connect(LockOptions.defaults());
    }
  }
}
