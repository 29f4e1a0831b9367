package dev.baton.testkit.memory;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.EntryMode;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.KeyOrder;
import dev.baton.spi.QueueRule;
import dev.baton.spi.Ticker;
import dev.baton.spi.WakeUp;
import dev.baton.torture.LockClientFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A lock store in the test's own JVM, with the guarantees Baton asks of a real one: as many holders per key as their
 * {@link QueueRule} allows, a fencing token that grows with every grant, entries that expire when their holder stops
 * renewing them, waiters queued in order of arrival for fair acquires and for writers, fair or not, and wake-ups when
 * an entry goes. Clients connect with {@link #connect}, or
 * through {@link Factory} with the store's {@link #target()}, as the contract suite does.
 *
 * <p>Time is the store's {@link Ticker}, or the system's. A client can be {@link #cutOff cut off}, as a crash of its
 * process would: its calls fail from then on, and its entries stay until they expire.
 */
public final class InMemoryStore implements AutoCloseable {
  private static final String SCHEME = "memory://";
  private static final Map<String, InMemoryStore> OPEN = new ConcurrentHashMap<>();
  private static final AtomicInteger NEXT = new AtomicInteger();

  private final String target;
  /** The time clients of this store run on, or null for the system's. */
  private final Ticker ticker;
  private final LongSupplier clock;
  private final Map<String, KeyState> keys = new HashMap<>();
  private final Map<String, Long> lastTokens = new HashMap<>();
  private final Set<String> cutOffClients = ConcurrentHashMap.newKeySet();

  private InMemoryStore(String target, Ticker ticker) {
    this.target = target;
    this.ticker = ticker;
    this.clock = ticker == null ? System::nanoTime : ticker::read;
  }

  /** A new, empty store on the system clock. */
  public static InMemoryStore create() {
    return open(null);
  }

  /**
   * A new, empty store that expires entries by {@code ticker}, whose clients' engines run on it too: a test moves
   * time for both at once (a {@link dev.baton.testkit.FakeTicker}).
   */
  public static InMemoryStore create(Ticker ticker) {
    return open(Objects.requireNonNull(ticker, "ticker"));
  }

  private static InMemoryStore open(Ticker ticker) {
    InMemoryStore store = new InMemoryStore(SCHEME + NEXT.incrementAndGet(), ticker);
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
    InMemoryBackend backend = new InMemoryBackend(this);
    return ticker == null ? ClientFactory.newClient(backend, defaults) : ClientFactory.newClient(backend, defaults, ticker);
  }

  /** From now on, every call of the client with this id fails as an unreachable store does. */
  public void cutOff(String clientId) {
    cutOffClients.add(clientId);
  }

  /** Deletes the entries that hold {@code key}, as an operator would; their holders learn it at their next renewal. */
  public synchronized void removeHolder(String key) {
    KeyState state = keys.get(key);
    if (state != null && state.entries.values().removeIf(entry -> entry.held)) {
      freed(key, state);
    }
  }

  /** How many entries the store keeps for {@code key}: its holders and its waiters. */
  public synchronized int entries(String key) {
    KeyState state = keys.get(key);
    if (state == null) {
      return 0;
    }
    expire(state, clock.getAsLong());
    return state.entries.size();
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
   * One try of an acquisition. Granted if the request's rule lets its entry hold beside the entries ahead of it
   * ({@link #modesAhead}). Otherwise the attempt waits, and counts as a waiter, with its {@code wakeUp} signalled when an entry of
   * the key goes.
   *
   * @return the grant, or null with the attempt waiting
   */
  synchronized Grant tryAcquire(AcquireRequest request, WakeUp wakeUp) {
    checkReachable(request.ownerId());
    long now = clock.getAsLong();
    KeyState state = keys.computeIfAbsent(request.key(), k -> new KeyState());
    expire(state, now);
    checkSamePermits(state, request);
    Entry entry = state.entries.get(request.ownerId());
    if (entry == null) {
      entry = new Entry(request, wakeUp);
      if (request.mayWait() || request.rule().awaited(modesAhead(state, request)) == QueueRule.HOLDS) {
        state.entries.put(request.ownerId(), entry);
      }
    }
    if (entry.held) {
      return new InMemoryGrant(request, entry.token);
    }
    if (request.rule().awaited(modesAhead(state, request)) == QueueRule.HOLDS) {
      entry.held = true;
      entry.token = lastTokens.merge(request.key(), 1L, Long::sum);
      entry.expiresAt = now + request.expiry().toNanos();
      if (request.rule().conflictsWithAll()) {
        state.othersWaited = false;
      }
      return new InMemoryGrant(request, entry.token);
    }
    entry.expiresAt = now + request.ttl().toNanos();
    if (!state.entries.isEmpty()) {
      state.othersWaited = true;
    }
    forgetIfUnused(request.key(), state);
    return null;
  }

  /** How long a waiter may wait for a wake-up before it tries again: until a holder's expiry, a third of its ttl at most. */
  synchronized Duration nextTryWithin(AcquireRequest request) {
    KeyState state = keys.get(request.key());
    long wait = request.ttl().toNanos() / 3;
    long now = clock.getAsLong();
    if (state != null) {
      for (Entry entry : state.entries.values()) {
        if (entry.held) {
          wait = Math.min(wait, Math.max(0, entry.expiresAt - now));
        }
      }
    }
    return Duration.ofNanos(wait);
  }

  /** Ends an attempt's wait: it no longer counts as a waiter. With {@code orGrant}, also deletes its grant if it has one. */
  synchronized void leave(AcquireRequest request, boolean orGrant) {
    KeyState state = keys.get(request.key());
    if (state == null) {
      return;
    }
    Entry entry = state.entries.get(request.ownerId());
    if (entry == null || (entry.held && !orGrant)) {
      return;
    }
    state.entries.remove(request.ownerId());
    if (holdsBackOthers(entry)) {
      freed(request.key(), state); // the next waiter may be first in line now
    } else {
      forgetIfUnused(request.key(), state);
    }
  }

  synchronized boolean renew(Grant grant, Duration expiry) {
    checkReachable(grant.request().ownerId());
    Entry holder = holderOf(grant);
    if (holder == null) {
      return false;
    }
    holder.expiresAt = clock.getAsLong() + expiry.toNanos();
    return true;
  }

  synchronized boolean release(Grant grant) {
    checkReachable(grant.request().ownerId());
    if (holderOf(grant) == null) {
      return false;
    }
    KeyState state = keys.get(grant.request().key());
    state.entries.remove(grant.request().ownerId());
    freed(grant.request().key(), state);
    return true;
  }

  /** Keeps the entry for {@code expiry} more if no other client waited during this holding, and releases it otherwise. */
  synchronized ChainEnd keepUnlessOthersWait(Grant grant, Duration expiry) {
    checkReachable(grant.request().ownerId());
    Entry holder = holderOf(grant);
    if (holder == null) {
      return ChainEnd.GONE;
    }
    KeyState state = keys.get(grant.request().key());
    if (state.othersWaited || state.entries.size() > 1) {
      state.entries.remove(grant.request().ownerId());
      freed(grant.request().key(), state);
      return ChainEnd.RELEASED;
    }
    holder.expiresAt = clock.getAsLong() + expiry.toNanos();
    return ChainEnd.KEPT;
  }

  /** The key's state: held by its holders, the oldest described, with the entries that do not hold counted as waiters. */
  synchronized LockStatus status(String key) {
    KeyState state = keys.get(key);
    if (state == null) {
      return LockStatus.free(key, 0);
    }
    long now = clock.getAsLong();
    expire(state, now);
    List<Entry> holders = state.entries.values().stream().filter(entry -> entry.held).toList();
    int waiters = state.entries.size() - holders.size();
    if (holders.isEmpty()) {
      return LockStatus.free(key, waiters);
    }
    Entry oldest = holders.get(0);
    return QueueRule.describe(HolderRecord.read(oldest.request.ownerRecord()).held(key, oldest.token,
        Duration.ofNanos(Math.max(0, oldest.expiresAt - now)), waiters),
        holders.stream().map(entry -> entry.request.rule()).toList());
  }

  synchronized List<LockStatus> list(String keyPrefix, int limit) {
    List<String> held = new ArrayList<>();
    long now = clock.getAsLong();
    for (Map.Entry<String, KeyState> key : keys.entrySet()) {
      expire(key.getValue(), now);
      if (key.getKey().startsWith(keyPrefix) && key.getValue().entries.values().stream().anyMatch(entry -> entry.held)) {
        held.add(key.getKey());
      }
    }
    held.sort(KeyOrder.BY_CODE_POINT);
    return held.stream().limit(limit).map(this::status).toList();
  }

  private Entry holderOf(Grant grant) {
    KeyState state = keys.get(grant.request().key());
    if (state == null) {
      return null;
    }
    expire(state, clock.getAsLong());
    Entry entry = state.entries.get(grant.request().ownerId());
    return entry != null && entry.held && entry.token == grant.fencingToken() ? entry : null;
  }

  /** Drops the entries whose time has passed; the waiters left are woken if one of them held others back. */
  private void expire(KeyState state, long now) {
    boolean blockerWent = false;
    for (Iterator<Entry> entries = state.entries.values().iterator(); entries.hasNext(); ) {
      Entry entry = entries.next();
      if (entry.expiresAt - now <= 0) {
        entries.remove();
        blockerWent |= holdsBackOthers(entry);
      }
    }
    if (blockerWent) {
      state.entries.values().forEach(entry -> entry.wakeUp.signal());
    }
  }

  /** An entry of the key went or its queue moved: every waiter is woken (signals only set a flag), the key forgotten if unused. */
  private void freed(String key, KeyState state) {
    state.entries.values().forEach(entry -> entry.wakeUp.signal());
    forgetIfUnused(key, state);
  }

  private void forgetIfUnused(String key, KeyState state) {
    if (state.entries.isEmpty()) {
      keys.remove(key);
    }
  }

  /** Refuses a permit of a semaphore whose entries at the store count another number of permits. */
  private void checkSamePermits(KeyState state, AcquireRequest request) {
    try {
      state.entries.values().forEach(entry -> request.rule().checkSamePermits(request.key(), entry.request.rule()));
    } catch (IllegalArgumentException e) {
      forgetIfUnused(request.key(), state);
      throw e;
    }
  }

  /**
   * The modes of the entries ahead of {@code request}'s: every holder, and the waiters that keep their place in line
   * ({@link #keepsPlace}) and came before it (all of them, for a request that keeps no place).
   */
  private static List<EntryMode> modesAhead(KeyState state, AcquireRequest request) {
    List<EntryMode> ahead = new ArrayList<>();
    boolean before = true;
    for (Entry entry : state.entries.values()) {
      if (entry.request.ownerId().equals(request.ownerId())) {
        before = false;
      } else if (entry.held || (keepsPlace(entry.request) && (before || !keepsPlace(request)))) {
        ahead.add(entry.request.rule().mode());
      }
    }
    return ahead;
  }

  /**
   * Whether an acquisition keeps its place in line while it waits: a fair one, and a writer, fair or not, so that a
   * stream of readers cannot starve it. A non-fair reader or permit keeps none: every waiter that does goes first.
   */
  private static boolean keepsPlace(AcquireRequest request) {
    return request.fair() || request.rule().mode() == EntryMode.EXCLUSIVE;
  }

  /** Whether the entry may keep another out: it holds, or it waits in line. */
  private static boolean holdsBackOthers(Entry entry) {
    return entry.held || keepsPlace(entry.request);
  }

  /** What the store keeps for a key: its entries in order of arrival, holders and waiters. */
  private static final class KeyState {
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    /** Whether another acquisition tried while the key was held: then a chain of local hand-overs ends here. */
    private boolean othersWaited;
  }

  /** One acquisition's entry: waiting until it holds, then holding under its token. */
  private static final class Entry {
    private final AcquireRequest request;
    private final WakeUp wakeUp;
    private boolean held;
    private long token;
    private long expiresAt;

    private Entry(AcquireRequest request, WakeUp wakeUp) {
      this.request = request;
      this.wakeUp = wakeUp;
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
