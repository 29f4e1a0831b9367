package dev.baton.engine;

import dev.baton.LeaderListener;
import dev.baton.LockHolder;
import dev.baton.LockHolder.MultiLock;
import dev.baton.LockOptions;
import dev.baton.LockStatus.Mode;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.Primitive;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LossListener;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared machinery of one client: the acquire loop, the per-key local queues, the watchdog, the
 * background threads and the entries held at the store ({@link HeldEntry}). Everything here is backend-independent.
 */
final class Engine implements LossListener, ReleaseRequestListener {
  private static final Logger log = LoggerFactory.getLogger(Engine.class);
  private static final long CLOSE_WAIT_MILLIS = 5_000;
  /** Threads for hold timeouts and background clean-up: bounded, so that many leases ending at once queue. */
  private static final int BACKGROUND_THREADS = 4;
  /**
   * Threads for the store calls of asynchronous acquires: bounded, as a pending acquire waits on none of them
   * ({@link AsyncAcquisition}), so that thousands pending cost these few.
   */
  private static final int ASYNC_ACQUIRE_THREADS = 4;

  private final LockBackend backend;
  private final String clientId;
  private final AtomicLong leaseSequence = new AtomicLong();
  private final KeyRegistry keys = new KeyRegistry();
  private final EngineTime time;
  private final ClientThreads background;
  private final ClientThreads asyncAcquires;
  /**
   * Where the futures of asynchronous acquires complete, and so where the caller's dependent stages run: threads
   * made as such a stage needs one and gone when idle, so that a stage that blocks (on another acquire of this
   * client, say) holds up neither the acquire threads nor, through them, its own client.
   */
  private final ClientThreads completions;
  private final Events events;
  private final Watchdog watchdog;
  private final Cleanup cleanup;
  private final ReleasesInFlight releasesInFlight = new ReleasesInFlight();
  private final LocalShares shares = new LocalShares();
  private final Acquisitions acquisitions = new Acquisitions();
  private final Observers observers;
  private final Set<HeldEntry> entries = ConcurrentHashMap.newKeySet();
  private final Set<LeaderWatching> watches = ConcurrentHashMap.newKeySet();
  /** The entries that linger now, by local key: at most one per key, as an exclusive entry keeps the key's turn. */
  private final ConcurrentHashMap<String, HeldEntry> lingering = new ConcurrentHashMap<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Counted down when the first {@link #close} is done, which a concurrent second one waits for. */
  private final CountDownLatch closeDone = new CountDownLatch(1);

  /** The engine of client {@code clientId}, on the system's time if {@code ticker} is null and on its time if not. */
  Engine(LockBackend backend, String clientId, Ticker ticker) {
    this.backend = backend;
    this.clientId = clientId;
    this.time = ticker == null ? EngineTime.system(clientId) : EngineTime.of(ticker);
    this.background = new ClientThreads("background", clientId, threads -> boundedPool(BACKGROUND_THREADS, threads));
    this.asyncAcquires = new ClientThreads("acquire", clientId, threads -> boundedPool(ASYNC_ACQUIRE_THREADS, threads));
    this.completions = new ClientThreads("completion", clientId, Executors::newCachedThreadPool);
    this.events = new Events(clientId);
    this.observers = new Observers(events, time);
    this.watchdog = new Watchdog(time);
    this.cleanup = new Cleanup(time, background.executor());
    backend.setLossListener(this);
    backend.setReleaseRequestListener(this);
  }

  private static ExecutorService boundedPool(int size, ThreadFactory threads) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(size, size, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  LockBackend backend() {
    return backend;
  }

  Events events() {
    return events;
  }

  Watchdog watchdog() {
    return watchdog;
  }

  /** The releases of Lock-method holds whose answers are still on their way: see {@link EngineLease#releaseInOrder}. */
  ReleasesInFlight releasesInFlight() {
    return releasesInFlight;
  }

  Cleanup cleanup() {
    return cleanup;
  }

  EngineTime time() {
    return time;
  }

  Observers observers() {
    return observers;
  }

  /** Where store calls of the client's own (clean-ups, the leader watches' reads) run. */
  ExecutorService background() {
    return background.executor();
  }

  /** Where {@code acquireAsync} makes its store calls. */
  ExecutorService asyncAcquires() {
    return asyncAcquires.executor();
  }

  /** A watch of who leads {@code key}, started, and closed with the client. */
  LeaderWatching watchLeadership(String key, LeaderListener listener) {
    LeaderWatching watch = new LeaderWatching(this, key, listener);
    watches.add(watch);
    if (closed.get()) {
      watch.close(); // closed meanwhile: the close below did not see this watch
      throw closedException();
    }
    watch.start();
    return watch;
  }

  void forgetWatch(LeaderWatching watch) {
    watches.remove(watch);
  }

  /** Where {@code acquireAsync} completes its futures. */
  ExecutorService completions() {
    return completions.executor();
  }

  KeyRegistry keys() {
    return keys;
  }

  Acquisitions acquisitions() {
    return acquisitions;
  }

  String clientId() {
    return clientId;
  }

  /** How many keys this client keeps local state for: those with a waiter or a holder now. */
  int keysInUse() {
    return keys.size();
  }

  void checkKey(String key) {
    KeyChecks.check(key);
    backend.checkKey(key);
  }

  /**
   * Takes the key's local turn, then an entry under {@code rule} at the store, within one deadline.
   *
   * @param primitive what the caller acquires for, as observers are told
   * @param interruptible whether an interrupt ends the wait; if not, it is kept for the caller
   */
  EngineLease acquire(String key, QueueRule rule, Primitive primitive, LockOptions options, boolean interruptible)
      throws InterruptedException {
    return acquire(key, rule, primitive, options, Optional.empty(), Deadline.after(time, options.waitTime()),
        interruptible);
  }

  /**
   * As {@link #acquire(String, QueueRule, Primitive, LockOptions, boolean)}, for a key of {@code multiLock} if it is
   * one (its entry's holder record says so, and it is handed over only to a multi-lock over the same keys:
   * {@link HandoverTerms}), within {@code deadline} (the multi-lock's one, which its round's stop may end early:
   * then the key's acquire fails as at its deadline) instead of the options' wait time.
   */
  EngineLease acquire(String key, QueueRule rule, Primitive primitive, LockOptions options,
      Optional<MultiLock> multiLock, Deadline deadline, boolean interruptible) throws InterruptedException {
    long start = time.now();
    checkLinger(key, primitive, options);
    observers.acquiring(key, primitive);
    try {
      backend.checkAcquisition(key, rule, options.fair());
      EngineLease lease = acquireInTurn(key, rule, options, multiLock, deadline, interruptible);
      lease.observeAs(primitive);
      observers.acquired(lease, primitive, start);
      return lease;
    } catch (LockTimeoutException e) {
      observers.timedOut(key, primitive, start);
      throw e;
    } catch (Throwable t) {
      observers.failed(key, primitive, start, t);
      throw t;
    }
  }

  /**
   * Refuses a linger for anything but a mutex: a read lock's or a permit's entry is not the key's alone, a leader
   * keeps its term while it holds, and a multi-lock's keys are released together.
   */
  static void checkLinger(String key, Primitive primitive, LockOptions options) {
    if (options.linger().isPresent() && primitive != Primitive.LOCK) {
      throw new IllegalArgumentException("linger (" + options.linger().get() + ") applies to mutexes only, not to the "
          + primitive + " '" + key + "': take it with LockClient.lock(key, options), or acquire the " + primitive
          + " without linger.");
    }
  }

  /**
   * As {@link #acquire}, interruptible, without a thread waiting: see {@link AsyncAcquisition}.
   *
   * @throws IllegalStateException if the client is closed
   */
  AsyncAcquisition acquireAsync(String key, QueueRule rule, Primitive primitive, LockOptions options) {
    return acquireAsync(key, rule, primitive, options, Optional.empty(), Deadline.after(time, options.waitTime()));
  }

  /**
   * As {@link #acquireAsync(String, QueueRule, Primitive, LockOptions)}, for a key of {@code multiLock} if it is one,
   * within {@code deadline} instead of the options' wait time.
   */
  AsyncAcquisition acquireAsync(String key, QueueRule rule, Primitive primitive, LockOptions options,
      Optional<MultiLock> multiLock, Deadline deadline) {
    checkLinger(key, primitive, options);
    ensureOpen();
    AsyncAcquisition acquisition = new AsyncAcquisition(this, key, rule, primitive, options, multiLock, deadline);
    try {
      asyncAcquires.executor().execute(acquisition::begin);
    } catch (RejectedExecutionException closing) {
      ensureOpen();
      throw closing;
    }
    return acquisition;
  }

  /**
   * An exclusive entry keeps the key's local turn for as long as it is held, and may hand it over to the next local
   * waiter with its entry at the store. Other entries take a turn of their key and rule only to talk to the store (one
   * thread at a time, or as many as a semaphore's permits) and give it back once granted: each holder has an entry of
   * its own at the store. They are never handed over: a thread with a turn waits at the store, ahead of every local
   * waiter, so a permit handed to the first of those would pass it over (and would keep its token for another grant).
   */
  private EngineLease acquireInTurn(String key, QueueRule rule, LockOptions options, Optional<MultiLock> multiLock,
      Deadline deadline, boolean interruptible) throws InterruptedException {
    ensureOpen();
    boolean exclusive = isExclusive(rule);
    String localKey = localKey(key, rule);
    EngineLease joined = joinShared(key, rule, localKey, options);
    if (joined != null) {
      return joined;
    }
    LocalQueue queue;
    LocalQueue.Turn turn;
    do {
      queue = keys.retain(localKey, turns(rule));
      try {
        turn = queue.enter(deadline, interruptible, exclusive ? HandoverTerms.of(options, ttl(options), multiLock) : null);
        if (turn == null) {
          throw timeout(key, options);
        }
      } catch (Throwable t) {
        keys.release(localKey);
        throw t;
      }
    } while (wasLostOnItsWay(turn));
    if (turn.handedOver() != null) {
      return tookOver(turn.handedOver()); // the lease releases the key when it ends
    }
    EngineLease resumed;
    try {
      resumed = exclusive ? resumeLingering(localKey, options, multiLock, queue) : null;
    } catch (Throwable t) {
      queue.leave();
      keys.release(localKey);
      throw t;
    }
    if (resumed != null) {
      return tookOver(resumed); // the lease keeps the turn, and releases the key when it ends
    }
    try {
      // A reader that waited for the turn behind another may join the entry that one was granted.
      EngineLease joinedInTurn = joinShared(key, rule, localKey, options);
      if (joinedInTurn != null) {
        keys.release(localKey); // retained twice: by the turn and by the joined lease
        return joinedInTurn;
      }
      return acquireAtStore(key, rule, options, multiLock, deadline, localKey, exclusive ? queue : null,
          interruptible);
    } catch (Throwable t) {
      if (exclusive) {
        queue.leave();
      }
      keys.release(localKey);
      throw t;
    } finally {
      if (!exclusive) {
        queue.leave();
      }
    }
  }

  /**
   * A lease on a shared entry this client holds already, for a reader ({@link LocalShares}); null if the reader must
   * queue at the store: another mode, no entry it may join, or an exclusive acquisition of the key under way here.
   */
  EngineLease joinShared(String key, QueueRule rule, String localKey, LockOptions options) {
    if (rule.mode() != Mode.SHARED || keys.inUse(key)) {
      return null;
    }
    EngineLease joined = shares.join(localKey, options, ttl(options));
    if (joined == null) {
      return null;
    }
    keys.retain(localKey, turns(rule)); // the lease releases the key when it ends
    return tookOver(joined);
  }

  private EngineLease acquireAtStore(String key, QueueRule rule, LockOptions options, Optional<MultiLock> multiLock,
      Deadline deadline, String localKey, LocalQueue heldTurn, boolean interruptible) throws InterruptedException {
    Signal signal = acquisitions.start();
    Runnable forgetWakeUp = deadline.stop().onStop(signal::signal);
    try {
      StoreAcquisition.Granted granted =
          new StoreAcquisition(this, key, rule, options, multiLock, deadline, interruptible, signal).run();
      return hold(granted.grant(), localKey, heldTurn, granted.sentAt(), lingerNanos(options));
    } finally {
      forgetWakeUp.run();
      acquisitions.finish(signal);
    }
  }

  /**
   * A lease on the entry of {@code localKey} that lingers in this client, for an acquirer with {@code options} that
   * has the key's turn in {@code turn}: no round trip ({@link HeldEntry#resume}). Null if none lingers, or it may not
   * be taken on these options (then it is released, and the acquirer goes to the store).
   */
  EngineLease resumeLingering(String localKey, LockOptions options, Optional<MultiLock> multiLock, LocalQueue turn) {
    HeldEntry entry = lingering.get(localKey);
    return entry == null ? null : entry.resume(options, ttl(options), multiLock, turn);
  }

  /** Whether an entry of {@code localKey} lingers now. */
  boolean isLingering(String localKey) {
    return lingering.containsKey(localKey);
  }

  /** {@code entry} lingers: the next acquirer of its local key may take it. */
  void lingers(String localKey, HeldEntry entry) {
    lingering.put(localKey, entry);
  }

  /** {@code entry} no longer lingers: taken again, or ended. */
  void forgetLingering(String localKey, HeldEntry entry) {
    lingering.remove(localKey, entry);
  }

  /** A timer that ends the linger of {@code entry} at {@code atNanos}; null if the client is closing. */
  Future<?> lingerTimer(HeldEntry entry, long atNanos) {
    try {
      return time.scheduleAt(() -> inBackground(entry::endLingering), atNanos);
    } catch (RejectedExecutionException closing) {
      return null;
    }
  }

  /** How long an entry taken with {@code options} lingers after its last release, in nanoseconds; 0 for not. */
  static long lingerNanos(LockOptions options) {
    return options.linger().map(Duration::toNanos).orElse(0L);
  }

  /** Whether entries under {@code rule} hold alone: they keep the local turn while held and may be handed over. */
  static boolean isExclusive(QueueRule rule) {
    return rule.mode() == Mode.EXCLUSIVE;
  }

  /**
   * How many threads of this client may talk to the store at once for entries under {@code rule}: one, or as many as
   * a semaphore's permits, which the store may grant all at once.
   */
  static int turns(QueueRule rule) {
    return rule.mode() == Mode.PERMIT ? rule.capacity() : 1;
  }

  /**
   * The name of the local queue of {@code key}'s entries under {@code rule}: the key for exclusive entries (so a mutex
   * and a write lock on one key share their turn), the key and the rule for others. No key holds a NUL.
   */
  static String localKey(String key, QueueRule rule) {
    return isExclusive(rule) ? key : key + '\u0000' + rule;
  }

  Duration ttl(LockOptions options) {
    return options.ttl().compareTo(backend.maxTtl()) <= 0 ? options.ttl() : backend.maxTtl();
  }

  /** The shared entries that readers of this client may join. */
  LocalShares shares() {
    return shares;
  }

  /**
   * Whether the lease handed over with {@code turn} was lost before its waiter took it: the loss passed the key's turn
   * on and let go of the key for the waiter, which then holds nothing and queues again for the turn.
   */
  static boolean wasLostOnItsWay(LocalQueue.Turn turn) {
    return turn.handedOver() != null && turn.handedOver().isEnding();
  }

  /** The lease handed over or joined by this waiter: ours now, unless the client closed meanwhile. */
  EngineLease tookOver(EngineLease lease) {
    if (closed.get()) {
      lease.close();
      throw closedException();
    }
    return lease;
  }

  /**
   * A request under a new owner id, for the ttl asked for or the store's cap on it, whose holder names
   * {@code multiLock} if the key is taken for one, and the linger asked for.
   */
  AcquireRequest newRequest(String key, QueueRule rule, LockOptions options, Optional<MultiLock> multiLock,
      boolean mayWait) {
    LockHolder holder = ThisProcess.currentThread(multiLock);
    return new AcquireRequest(key, clientId + ":" + leaseSequence.incrementAndGet(), rule, ttl(options),
        options.holdTimeout().orElse(null), options.fair(), mayWait,
        options.linger().map(holder::withLinger).orElse(holder));
  }

  /**
   * The entry just granted and its first lease. The watchdog renews the entry while it is held; a hold timer ends the
   * lease when its hold timeout comes; a shared entry may be joined by later readers of this client.
   *
   * @param heldTurn the key's local queue, whose turn an exclusive entry keeps while held and in which it is offered
   *     to the next waiter when released; null for other entries
   * @param lingerNanos how long the entry lingers after its last lease leaves; 0 for not
   */
  EngineLease hold(Grant grant, String localKey, LocalQueue heldTurn, long sentAt, long lingerNanos) {
    HeldEntry entry = new HeldEntry(this, grant, localKey, heldTurn, sentAt, lingerNanos);
    EngineLease lease = entry.firstLease(sentAt);
    entries.add(entry);
    if (closed.get()) {
      entries.remove(entry);
      cleanup.run("release of " + grant.request().lockName() + ", granted while closing", () -> backend.release(grant));
      throw closedException();
    }
    AcquireRequest request = grant.request();
    if (request.renewed()) {
      watchdog.watch(entry);
    }
    if (lingerNanos != 0) {
      entry.watchForOthers();
    }
    if (request.holdTimeout() != null) {
      lease.setHoldTimer(holdTimer(lease, request.holdTimeout().toNanos()));
    }
    if (request.rule().mode() == Mode.SHARED) {
      shares.host(entry);
    }
    return lease;
  }

  /** A timer that ends {@code lease} by its hold timeout in {@code delayNanos}; null if the client is closing. */
  Future<?> holdTimer(EngineLease lease, long delayNanos) {
    try {
      return time.schedule(() -> background.executor().execute(lease::expire), delayNanos);
    } catch (RejectedExecutionException closing) {
      log.debug("Client {} closing; the hold timer of '{}' is not needed", clientId, lease.key());
      return null;
    }
  }

  /** Runs {@code action} on one of the client's background threads; once they stopped (the client closed), here. */
  void inBackground(Runnable action) {
    try {
      background.executor().execute(action);
    } catch (RejectedExecutionException closing) {
      action.run();
    }
  }

  /** A lease on an entry of local key {@code localKey} ended: the key is no longer in use by it. */
  void forget(String localKey) {
    keys.release(localKey);
  }

  /** An entry ended: released by its last lease, or lost. */
  void dropEntry(HeldEntry entry) {
    entries.remove(entry);
  }

  @Override
  public void lost(Grant grant, LostReason reason) {
    for (HeldEntry entry : entries) {
      if (entry.grant() == grant) {
        entry.lose(reason);
      }
    }
  }

  @Override
  public void allLost(LostReason reason) {
    List.copyOf(entries).forEach(entry -> entry.lose(reason));
  }

  @Override
  public void requested(String key, String ownerId) {
    for (HeldEntry entry : entries) {
      if (entry.grant().request().ownerId().equals(ownerId) && entry.grant().request().key().equals(key)) {
        entry.releaseRequested();
      }
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  void ensureOpen() {
    if (closed.get()) {
      throw closedException();
    }
  }

  private IllegalStateException closedException() {
    return new IllegalStateException("LockClient " + clientId + " (" + backend.name()
        + ") is closed: it takes no more locks. Create a new client.");
  }

  LockTimeoutException timeout(String key, LockOptions options) {
    return new LockTimeoutException("Lock '" + key + "' on " + backend.name() + " was not acquired within "
        + Durations.format(options.waitTime().orElse(Duration.ZERO))
        + ": another owner holds it. Wait longer, or retry later.");
  }

  /**
   * Fails the waiters, releases the held leases and the lingering entries, waits for the answers to releases still on
   * their way, stops the threads and closes the backend. Safe from any thread,
   * the client's own included (a listener that closes the client on a loss): that thread is neither waited for nor
   * interrupted. A close while another is under way waits for it to finish, unless it runs on one of the client's
   * threads, which the first may be waiting for.
   */
  void close() {
    if (!closed.compareAndSet(false, true)) {
      awaitFirstClose();
      return;
    }
    try {
      keys.close(closedException().getMessage());
      acquisitions.wakeAllAndAwait(CLOSE_WAIT_MILLIS);
      List.copyOf(watches).forEach(LeaderWatching::close);
      List.copyOf(entries).forEach(entry -> entry.holders().forEach(EngineLease::releaseOnClose));
      List.copyOf(lingering.values()).forEach(HeldEntry::endLingering);
      releasesInFlight.await(CLOSE_WAIT_MILLIS);
      stopThreads();
      backend.close();
    } finally {
      closeDone.countDown();
    }
  }

  private void awaitFirstClose() {
    if (events.runsCurrentThread() || background.runsCurrentThread() || asyncAcquires.runsCurrentThread()
        || completions.runsCurrentThread()) {
      return;
    }
    try {
      closeDone.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stopThreads() {
    time.shutdown();
    background.shutdown();
    asyncAcquires.shutdown();
    completions.shutdown();
    events.close(CLOSE_WAIT_MILLIS);
    background.awaitStopped(CLOSE_WAIT_MILLIS);
    asyncAcquires.awaitStopped(CLOSE_WAIT_MILLIS);
    completions.awaitStopped(CLOSE_WAIT_MILLIS);
  }
}
