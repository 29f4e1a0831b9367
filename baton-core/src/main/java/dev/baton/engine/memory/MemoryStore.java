package dev.baton.engine.memory;

import dev.baton.BackendUnavailableException;
import dev.baton.LockClient;
import dev.baton.LockHolder;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.ClientFactory;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.KeyOrder;
import dev.baton.spi.KeyWatch;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LockStatuses;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.Ticker;
import dev.baton.spi.WakeUp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A lock store in this JVM, with the guarantees Baton asks of a real one: as many holders per key as their
 * {@link QueueRule} allows, a fencing token that grows with every grant, entries that expire when their holder stops
 * renewing them, waiters queued in order of arrival for fair acquires and for writers, fair or not, and wake-ups when
 * an entry goes. Behind {@code dev.baton.memory.MemoryLockClient} for applications, and behind the test kit's
 * {@code InMemoryStore}, which adds nothing but a name of its own.
 *
 * <p>Stores are known by name, {@code ""} being the JVM's default store. A store lives while it is used: by the
 * caller of {@link #open} or {@link #create} until its {@link #close}, and by each client from {@link #connect} until
 * the client is closed. With no use left it is forgotten, its entries with it: the next {@link #open} of its name
 * makes a new, empty store.
 *
 * <p>Time is the store's {@link Ticker}, or the system's. A client can be {@link #cutOff cut off}, as a crash of its
 * process would: its calls fail from then on, and its entries stay until they expire.
 *
 * <p>Not API: this package is not exported by {@code dev.baton.core}'s module, and may change in any release.
 */
public final class MemoryStore implements AutoCloseable {
  private static final String SCHEME = "memory://";
  /** The stores in use, by name. Guards every store's {@link #uses} too. */
  private static final Map<String, MemoryStore> OPEN = new HashMap<>();

  /** The store's name, followed by {@code /NAMESPACE} for the keys of a namespace. */
  private final String id;
  /** The time clients of this store run on, or null for the system's. */
  private final Ticker ticker;
  private final LongSupplier clock;
  private final Map<String, KeyState> keys = new HashMap<>();
  private final Map<String, Long> lastTokens = new HashMap<>();
  private final Set<String> cutOffClients = ConcurrentHashMap.newKeySet();
  /** The watches of each key, signalled when an entry of the key comes (a waiter), holds or goes. */
  private final Map<String, Set<WakeUp>> watches = new HashMap<>();
  /** The clients that listen for requests to release their entries, by client id. */
  private final Map<String, ReleaseRequestListener> releaseListeners = new ConcurrentHashMap<>();
  /** The handles and clients using this store; at zero it is forgotten. */
  private int uses;

  private MemoryStore(String id, Ticker ticker) {
    this.id = id;
    this.ticker = ticker;
    this.clock = ticker == null ? System::nanoTime : ticker::read;
  }

  /**
   * The store named {@code name}, made empty on the system clock if none is in use: one use, until {@link #close}.
   * With a {@code namespace}, the keys of that namespace in it: a store of their own, which no client of another
   * namespace, or of none, meets. The caller checks both.
   *
   * @param namespace the namespace, or null for the store's own keys
   */
  public static MemoryStore open(String name, String namespace) {
    return open(name, namespace, null);
  }

  /**
   * As {@link #open(String, String)}, on {@code ticker}'s time: a store made empty if none is in use expires entries
   * by it, and its clients' engines run on it.
   *
   * @param ticker the store's time, or null for the system's
   * @throws IllegalStateException if the store is in use on another time
   */
  public static MemoryStore open(String name, String namespace, Ticker ticker) {
    Objects.requireNonNull(name, "name");
    String id = namespace == null ? name : name + "/" + namespace;
    synchronized (OPEN) {
      MemoryStore store = OPEN.computeIfAbsent(id, n -> new MemoryStore(n, ticker));
      if (store.ticker != ticker) {
        throw new IllegalStateException("The in-memory store " + store.uri() + " is in use on "
            + (store.ticker == null ? "the system's time" : "another time, " + store.ticker) + ", not on "
            + (ticker == null ? "the system's" : ticker.toString()) + ": connect every client of one store with the"
            + " same time, or give this one a store name of its own.");
      }
      store.uses++;
      return store;
    }
  }

  /**
   * A new, empty store named {@code name} that expires entries by {@code ticker}, whose clients' engines run on it
   * too, so that a test moves time for both at once; the system's time if {@code ticker} is null. One use, until
   * {@link #close}.
   *
   * @throws IllegalStateException if a store of that name is in use
   */
  public static MemoryStore create(String name, Ticker ticker) {
    Objects.requireNonNull(name, "name");
    synchronized (OPEN) {
      if (OPEN.containsKey(name)) {
        throw new IllegalStateException("An in-memory store named '" + name + "' is in use already; choose another"
            + " name.");
      }
      MemoryStore store = new MemoryStore(name, ticker);
      store.uses = 1;
      OPEN.put(name, store);
      return store;
    }
  }

  /**
   * The URI that connects to this store: {@code memory://NAME}, {@code memory://} for the default store. The keys of
   * a namespace show as {@code memory://NAME/NAMESPACE}, which is no URI to connect with: clients give the namespace
   * beside the store's URI.
   */
  public String uri() {
    return SCHEME + id;
  }

  /**
   * A new client of this store, which uses it until the client is closed.
   *
   * @throws IllegalStateException if the store is forgotten already: it had no use left
   */
  public LockClient connect(LockOptions defaults) {
    Objects.requireNonNull(defaults, "defaults");
    LockBackend backend = newBackend();
    try {
      return ticker == null ? ClientFactory.newClient(backend, defaults)
          : ClientFactory.newClient(backend, defaults, ticker);
    } catch (RuntimeException | Error e) {
      backend.close();
      throw e;
    }
  }

  /**
   * A new connection to this store, without an engine around it, which uses the store until it is closed: for tests
   * of the SPI.
   *
   * @throws IllegalStateException if the store is forgotten already: it had no use left
   */
  public LockBackend newBackend() {
    synchronized (OPEN) {
      if (uses == 0) {
        throw new IllegalStateException("The in-memory store " + uri() + " was closed with its last client; open it"
            + " again.");
      }
      uses++;
    }
    return new MemoryBackend(this);
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

  /** Whether the client with this id listens for requests to release its entries: from its first wish to, until it closes. */
  public boolean listensForReleaseRequests(String clientId) {
    return releaseListeners.containsKey(clientId);
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

  /** Ends one use, begun by {@link #open}, {@link #create} or a client; the last one forgets the store. */
  @Override
  public void close() {
    synchronized (OPEN) {
      if (uses > 0 && --uses == 0) {
        OPEN.remove(id, this);
      }
    }
  }

  @Override
  public String toString() {
    return "MemoryStore{" + uri() + '}';
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
    KeyState state = keys.computeIfAbsent(request.key(), KeyState::new);
    expire(state, now);
    checkSamePermits(state, request);
    Entry entry = state.entries.get(request.ownerId());
    boolean cameToWait = false;
    if (entry == null) {
      entry = new Entry(request, wakeUp);
      if (request.mayWait() || request.rule().awaited(modesAhead(state, request)) == QueueRule.HOLDS) {
        state.entries.put(request.ownerId(), entry);
        cameToWait = true;
      }
    }
    if (entry.held) {
      return new MemoryGrant(request, entry.token);
    }
    if (request.rule().awaited(modesAhead(state, request)) == QueueRule.HOLDS) {
      entry.held = true;
      entry.token = lastTokens.merge(request.key(), 1L, Long::sum);
      entry.expiresAt = now + request.entryTtl().toNanos();
      if (request.rule().conflictsWithAll()) {
        state.othersWaited = false;
      }
      changed(request.key());
      return new MemoryGrant(request, entry.token);
    }
    entry.expiresAt = now + request.ttl().toNanos();
    if (!state.entries.isEmpty()) {
      state.othersWaited = true;
    }
    forgetIfUnused(request.key(), state);
    if (cameToWait) {
      changed(request.key()); // a waiter came: a lingering holder gives the key up
    }
    return null;
  }

  /**
   * A single try of each of {@code requests} in order, at one moment, stopping at the first that may not hold
   * ({@link dev.baton.spi.LockBackend#acquireInOrder}): the grants of the first requests.
   */
  synchronized List<Grant> tryAcquireInOrder(List<AcquireRequest> requests) {
    List<Grant> grants = new ArrayList<>(requests.size());
    for (AcquireRequest request : requests) {
      Grant grant = tryAcquire(request, () -> { });
      if (grant == null) {
        break;
      }
      grants.add(grant);
    }
    return grants;
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

  /**
   * Writes {@code holder} as the record of the grant's entry if it still holds, the rest of the entry unchanged; false,
   * and nothing written, if it does not (released, expired or removed).
   */
  synchronized boolean rewriteHolder(Grant grant, LockHolder holder) {
    checkReachable(grant.request().ownerId());
    Entry entry = holderOf(grant);
    if (entry == null) {
      return false;
    }
    entry.rewritten = HolderRecord.write(grant.request().ownerId(), holder);
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

  /**
   * Asks every holder of {@code key} to release it: tells each holder's client that listens, unless it is cut off.
   * Called outside the store's monitor, as a store's I/O thread would.
   *
   * @return how many entries hold the key
   */
  int requestRelease(String key) {
    List<AcquireRequest> holders;
    synchronized (this) {
      KeyState state = keys.get(key);
      if (state == null) {
        return 0;
      }
      expire(state, clock.getAsLong());
      holders = state.entries.values().stream().filter(entry -> entry.held).map(entry -> entry.request).toList();
    }
    for (AcquireRequest holder : holders) {
      ReleaseRequestListener listener = releaseListeners.get(holder.clientId());
      if (listener != null && !cutOffClients.contains(holder.clientId())) {
        listener.requested(key, holder.ownerId());
      }
    }
    return holders.size();
  }

  /** From now on, requests to release the entries of client {@code clientId} go to {@code listener}. */
  void listen(String clientId, ReleaseRequestListener listener) {
    releaseListeners.put(clientId, listener);
  }

  void stopListening(String clientId) {
    releaseListeners.remove(clientId);
  }

  /** The key's state: held by its holders, the oldest described, with the entries that do not hold counted as waiters. */
  synchronized LockStatus status(String key) {
    KeyState state = keys.get(key);
    if (state == null) {
      return LockStatuses.free(key, 0);
    }
    long now = clock.getAsLong();
    expire(state, now);
    List<Entry> holders = state.entries.values().stream().filter(entry -> entry.held).toList();
    int waiters = state.entries.size() - holders.size();
    if (holders.isEmpty()) {
      return LockStatuses.free(key, waiters);
    }
    Entry oldest = holders.get(0);
    return QueueRule.describe(HolderRecord.read(oldest.record()).held(key, oldest.token,
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
    boolean holderWent = false;
    for (Iterator<Entry> entries = state.entries.values().iterator(); entries.hasNext(); ) {
      Entry entry = entries.next();
      if (entry.expiresAt - now <= 0) {
        entries.remove();
        blockerWent |= holdsBackOthers(entry);
        holderWent |= entry.held;
      }
    }
    if (blockerWent) {
      state.entries.values().forEach(entry -> entry.wakeUp.signal());
    }
    if (holderWent) {
      changed(state.key);
    }
  }

  /** An entry of the key went or its queue moved: every waiter is woken (signals only set a flag), the key forgotten if unused. */
  private void freed(String key, KeyState state) {
    state.entries.values().forEach(entry -> entry.wakeUp.signal());
    forgetIfUnused(key, state);
    changed(key);
  }

  /**
   * Signals {@code changed} once, when an entry of {@code key} next comes to wait, holds or goes, unless the returned watch is closed
   * first. An expiry is seen, and signalled, at the next call that reads the key.
   */
  synchronized KeyWatch watch(String key, WakeUp changed) {
    watches.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(changed);
    return () -> unwatch(key, changed);
  }

  private synchronized void unwatch(String key, WakeUp changed) {
    Set<WakeUp> watching = watches.get(key);
    if (watching != null && watching.remove(changed) && watching.isEmpty()) {
      watches.remove(key);
    }
  }

  private void changed(String key) {
    Set<WakeUp> watching = watches.remove(key);
    if (watching != null) {
      watching.forEach(WakeUp::signal);
    }
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
  private static List<Mode> modesAhead(KeyState state, AcquireRequest request) {
    List<Mode> ahead = new ArrayList<>();
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
    return request.fair() || request.rule().mode() == Mode.EXCLUSIVE;
  }

  /** Whether the entry may keep another out: it holds, or it waits in line. */
  private static boolean holdsBackOthers(Entry entry) {
    return entry.held || keepsPlace(entry.request);
  }

  /** What the store keeps for a key: its entries in order of arrival, holders and waiters. */
  private static final class KeyState {
    private final String key;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    /** Whether another acquisition tried while the key was held: then a chain of local hand-overs ends here. */
    private boolean othersWaited;

    private KeyState(String key) {
      this.key = key;
    }
  }

  /** One acquisition's entry: waiting until it holds, then holding under its token. */
  private static final class Entry {
    private final AcquireRequest request;
    private final WakeUp wakeUp;
    private boolean held;
    private long token;
    private long expiresAt;
    /** The owner id and holder as rewritten ({@link #rewriteHolder}); null for as the request wrote them. */
    private String rewritten;

    private Entry(AcquireRequest request, WakeUp wakeUp) {
      this.request = request;
      this.wakeUp = wakeUp;
    }

    private String record() {
      return rewritten != null ? rewritten : request.ownerRecord();
    }
  }

  private record MemoryGrant(AcquireRequest request, long fencingToken) implements Grant {}
}
