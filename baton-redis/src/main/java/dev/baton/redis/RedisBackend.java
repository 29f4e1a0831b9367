package dev.baton.redis;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.internal.ReleasesAhead;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.ChainEnd;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LockStatuses;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Baton's lock protocol on one Redis server, or on the master that sentinels name: Lua scripts (acquire, release and
 * renew; withdraw, for a waiting writer that gives up; status and list, which only read) on one command connection,
 * and wake-ups on one subscription connection. Every {@link QueueRule} is served: the acquire script takes the rule's
 * mode and capacity and decides in one step whether the entry holds; its header describes what is stored.
 *
 * <p>A request to release goes to each holder's client on that client's own channel ({@link RedisKeys#releaseChannel}),
 * as a message {@code OWNER_ID KEY}; a client subscribes to it on its subscription connection from the first lease
 * that wants to hear requests, so that an acquire costs nothing extra, until it closes.
 */
final class RedisBackend implements LockBackend, AttemptStore {
  private static final LuaScript ACQUIRE = LuaScript.load("acquire.lua");
  private static final LuaScript ACQUIRE_IN_ORDER = LuaScript.loadAround("acquire_in_order.lua", ACQUIRE);
  private static final LuaScript RELEASE = LuaScript.load("release.lua");
  private static final LuaScript RENEW = LuaScript.load("renew.lua");
  private static final LuaScript REWRITE = LuaScript.load("rewrite.lua");
  private static final LuaScript LIST = LuaScript.load("list.lua");
  /** How many values list.lua returns per lock. */
  private static final int LOCK_FIELDS = 7;
  private static final LuaScript WITHDRAW = LuaScript.load("withdraw.lua");
  private static final LuaScript HOLDERS = LuaScript.load("holders.lua");
  /** Equals no sender of a release: {@link ReleasesAhead#awaitOthers} with it waits for every release of a lock. */
  private static final Object EVERY_SENDER = new Object();

  private final RedisLink link;
  private final RedisKeys keys;
  private final long yieldMillis;
  private volatile ReleaseRequestListener releaseRequests = (key, ownerId) -> { };
  /**
   * How many releases sent ahead of their answers ({@link #releaseInOrder}) met NOSCRIPT and went again by EVAL, each
   * counted before its EVAL is sent: see {@link #releasedSince}.
   */
  private final AtomicLong releasesSentAgain = new AtomicLong();
  /** Guarded by this: whether the client's release channel is subscribed. */
  private boolean listening;

  private RedisBackend(RedisLink link, RedisKeys keys, Duration yieldTime) {
    this.link = link;
    this.keys = keys;
    this.yieldMillis = yieldTime.toMillis();
  }

  /** Opens the command and subscription connections, or fails with nothing left running. */
  static RedisBackend connect(RedisURI uri, String namespace, Duration commandTimeout, Duration connectTimeout,
      Duration yieldTime, ReplicaAcks acks) {
    return connect(RedisLink.connect(uri, commandTimeout, connectTimeout, acks), RedisKeys.untagged(namespace),
        yieldTime);
  }

  /** The backend on a link that is open, writing the {@code keys} layout. */
  static RedisBackend connect(RedisLink link, RedisKeys keys, Duration yieldTime) {
    return new RedisBackend(link, keys, yieldTime);
  }

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public void checkKey(String key) {
    // Redis keys and channels are binary-safe: every key the engine accepts can be stored.
  }

  /** The lock hash and its expiry in one script; the waiters are the client connections subscribed to its channel. */
  @Override
  public LockStatus status(String key) {
    awaitOtherReleases(key);
    long sentAgain = releasesSentAgain.get();
    try {
      List<Object> lock = LIST.run(link.commands(), ScriptOutputType.MULTI, new String[] {keys.lock(key)}, "status");
      if (releasedSince(sentAgain, () -> ReleasesAhead.awaitOthers(keys.lock(key), EVERY_SENDER,
          link.commandTimeout()))) {
        lock = LIST.run(link.commands(), ScriptOutputType.MULTI, new String[] {keys.lock(key)}, "status");
      }
      return LockReads.status(link, key, lock, keys.channel(key), RedisBackend::held);
    } catch (RuntimeException e) {
      throw link.translate(e, "Reading the status of '" + key + "'");
    }
  }

  /**
   * SCAN for the lock hashes under the prefix (the whole database, a thousand keys a call), keeping the first
   * {@code limit} keys; then one script reads those locks at one moment, and one PUBSUB NUMSUB counts their waiters.
   */
  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    ReleasesAhead.awaitOthersUnder(keys.prefix(), link, link.commandTimeout());
    long sentAgain = releasesSentAgain.get();
    try {
      List<LockStatus> listed = listOnce(keyPrefix, limit);
      return releasedSince(sentAgain, () -> ReleasesAhead.awaitOthersUnder(keys.prefix(), EVERY_SENDER,
          link.commandTimeout())) ? listOnce(keyPrefix, limit) : listed;
    } catch (RuntimeException e) {
      throw link.translate(e, "Listing the locks under '" + keyPrefix + "'");
    }
  }

  private List<LockStatus> listOnce(String keyPrefix, int limit) {
    List<String> found = LockScan.firstKeys(link.commands(), keys, keyPrefix, limit);
    if (found.isEmpty()) {
      return List.of();
    }
    List<Object> locks = link.readLocks(LIST, found, key -> new String[] {keys.lock(key)});
    return LockReads.held(link, found, locks, LOCK_FIELDS, keys::channel, RedisBackend::held);
  }

  /**
   * A held lock as list.lua reads it: owner, token, ms left and holder of the oldest holder, the holders' mode, how
   * many hold, and the number of permits, from {@code offset} on.
   */
  private static LockStatus held(String key, List<Object> fields, int offset, int waiters) {
    LockStatus oldest = LockReads.oldestHolder(key, fields, offset, waiters);
    return switch (Mode.valueOf((String) fields.get(offset + 4))) {
      case EXCLUSIVE -> oldest;
      case SHARED -> LockStatuses.heldBy(oldest, Mode.SHARED, ((Long) fields.get(offset + 5)).intValue(), 0);
      case PERMIT -> LockStatuses.heldBy(oldest, Mode.PERMIT, ((Long) fields.get(offset + 5)).intValue(),
          ((Long) fields.get(offset + 6)).intValue());
    };
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new RedisAttempt(this, request);
  }

  /**
   * Runs the acquire script for one try of {@code request}, under its rule: {@code [1, token]} when its entry holds,
   * {@code [0, ms to wait at most, arrival]} when not.
   *
   * @param waiting whether the attempt is subscribed to the key's wake-ups, so that the store should ask for them
   * @param arrival when the attempt's first try reached the server, as that try's reply said; 0 if not known
   * @param mayBeRecorded whether an earlier try of this waiting writer was sent, which may have recorded it
   */
  @Override
  public List<Object> acquire(AcquireRequest request, boolean waiting, long arrival, boolean mayBeRecorded) {
    String key = request.key();
    awaitOtherReleases(key);
    long sentAgain = releasesSentAgain.get();
    try {
      List<Object> reply = tryOnce(request, waiting, arrival, mayBeRecorded);
      if (AttemptStore.granted(reply) || !releasedSince(sentAgain, () -> ReleasesAhead.awaitOthers(keys.lock(key),
          EVERY_SENDER, link.commandTimeout()))) {
        return reply;
      }
      // The try may have found an entry of this client that a release sent before it deletes: tried again after it,
      // as the writer it may have recorded, arrived when the first said.
      return tryOnce(request, waiting, (Long) reply.get(0) == 0L ? (Long) reply.get(2) : arrival, true);
    } catch (RuntimeException e) {
      throw link.translate(e, "Acquiring '" + key + "'");
    }
  }

  private List<Object> tryOnce(AcquireRequest request, boolean waiting, long arrival, boolean mayBeRecorded) {
    String key = request.key();
    QueueRule rule = request.rule();
    return link.holdingWrites().write(keys.lock(key), commands -> ACQUIRE.run(commands, ScriptOutputType.MULTI,
        new String[] {keys.lock(key), keys.fence(key), keys.yielded(key), keys.writers(key)},
        request.ownerId(), millis(request.entryTtl()), flag(waiting), millis(request.ttl()),
        HolderRecord.write(request.holder()), rule.mode().name(), Integer.toString(rule.capacity()),
        Long.toString(arrival), flag(waitsAsWriter(request)), flag(mayBeRecorded)), AttemptStore::granted);
  }

  /**
   * Whether a release this client sent ahead of its answer met NOSCRIPT since {@code sentAgain} was read from
   * {@link #releasesSentAgain}: that release went again by EVAL once the NOSCRIPT came back, after the requests this
   * client sent meanwhile, which may then have found the entry it deletes. If so, runs {@code awaitReleases}, which
   * waits for the releases on their way of the keys read, this client's own too, so that a request sent again is
   * served after them. The count moves before the answer to a later request is seen (one connection answers in
   * order), so a request whose answer shows it unmoved was served after every release sent before it.
   */
  private boolean releasedSince(long sentAgain, Runnable awaitReleases) {
    if (releasesSentAgain.get() == sentAgain) {
      return false;
    }
    awaitReleases.run();
    return true;
  }

  /**
   * True on one server or through Sentinel, unless replicas must acknowledge the writes that give a holding (each
   * grant is then followed by a wait for them, on a connection of its own). On a cluster a script reaches one slot,
   * and each key's names are on its own.
   */
  @Override
  public boolean acquiresInOrder() {
    return !keys.tagged() && link.holdingWrites().onCommandConnection();
  }

  /**
   * acquire_in_order.lua: acquire.lua's try for each key in turn, in one script, stopping at the first that may not
   * hold. A script whose reply is lost may have taken some: their entries are deleted (by owner id, each new) before
   * this throws, or expire with their ttl if that fails too.
   */
  @Override
  public List<Grant> acquireInOrder(List<AcquireRequest> requests) {
    String[] locks = new String[requests.size() * 4];
    String[] args = new String[requests.size() * 10];
    for (int i = 0; i < requests.size(); i++) {
      AcquireRequest request = requests.get(i);
      String key = request.key();
      awaitOtherReleases(key);
      locks[i * 4] = keys.lock(key);
      locks[i * 4 + 1] = keys.fence(key);
      locks[i * 4 + 2] = keys.yielded(key);
      locks[i * 4 + 3] = keys.writers(key);
      args[i * 10] = request.ownerId();
      args[i * 10 + 1] = millis(request.entryTtl());
      args[i * 10 + 2] = "0";
      args[i * 10 + 3] = millis(request.ttl());
      args[i * 10 + 4] = HolderRecord.write(request.holder());
      args[i * 10 + 5] = Mode.EXCLUSIVE.name();
      args[i * 10 + 6] = "1";
      args[i * 10 + 7] = "0";
      args[i * 10 + 8] = "0";
      args[i * 10 + 9] = "0";
    }
    List<Long> tokens;
    try {
      tokens = ACQUIRE_IN_ORDER.run(link.commands(), ScriptOutputType.MULTI, locks, args);
    } catch (RuntimeException e) {
      requests.forEach(this::releaseQuietly);
      throw link.translate(e, "Acquiring " + requests.stream().map(AcquireRequest::key).toList());
    }
    List<Grant> grants = new ArrayList<>(tokens.size());
    for (int i = 0; i < tokens.size(); i++) {
      grants.add(new RedisGrant(requests.get(i), tokens.get(i)));
    }
    return grants;
  }

  /** Deletes the entry {@code request} may have, if the store can be reached; else it expires with its ttl. */
  private void releaseQuietly(AcquireRequest request) {
    try {
      release(request);
    } catch (RuntimeException e) {
      // The entry, if the lost script made it, expires with its ttl as a crashed holder's does.
    }
  }

  /**
   * Whether {@code request}'s attempt is recorded as a waiting writer while it waits: an exclusive acquisition that
   * may wait, fair or not, holds back the shared entries and permits that come after it (see acquire.lua), so that a
   * stream of readers starves no writer. Fairness decides only how writers race among themselves.
   */
  static boolean waitsAsWriter(AcquireRequest request) {
    return request.rule().mode() == Mode.EXCLUSIVE && request.mayWait();
  }

  @Override
  public boolean recordsWaitingWriter(AcquireRequest request) {
    return waitsAsWriter(request);
  }

  /** Removes the waiting writer's record of {@code request}, if there is one, waking those it held back. */
  @Override
  public void withdraw(AcquireRequest request) {
    String key = request.key();
    try {
      WITHDRAW.<Long>run(link.commands(), ScriptOutputType.INTEGER, new String[] {keys.writers(key)},
          request.ownerId(), keys.channel(key), link.publishCommand());
    } catch (RuntimeException e) {
      throw link.translate(e, "Withdrawing the waiting writer of " + request.lockName());
    }
  }

  @Override
  public WakeUpChannels.Subscription subscribe(String key, WakeUp wakeUp) {
    try {
      return link.wakeUps().subscribe(keys.channel(key), wakeUp);
    } catch (RuntimeException e) {
      throw link.translate(e, "Waiting for '" + key + "'");
    }
  }

  /** The client's wake-up channels, to see which keys it waits for. */
  WakeUpChannels wakeUps() {
    return link.wakeUps();
  }

  @Override
  public boolean release(Grant grant) {
    return release(grant.request());
  }

  /** Deletes the entry of {@code request}'s owner, if it is there. */
  @Override
  public boolean release(AcquireRequest request) {
    return runRelease(request, "Releasing '" + request.key() + "'", "0") == 1L;
  }

  /**
   * Sends the release script and returns before its answer: every request of this client for a key goes on one
   * connection (on a cluster, the connection to the master of the key's slot), which Redis serves in order, so this
   * client's next acquire, status read or renewal of the key is served after the release; another client of this
   * process waits for the answer before it acquires the key, reads its status, lists it or asks its holders to release
   * it ({@link ReleasesAhead}). A release that meets NOSCRIPT goes again by EVAL once that answer comes, after the
   * requests sent meanwhile: a try or a status read of this client that such a release may have come after is sent
   * again once it is answered ({@link #releasedSince}). Where replicas must acknowledge the writes that give a holding, those writes and the
   * releases go on a connection of their own, apart from the status reads: there the release is awaited, as
   * {@link #release} is.
   */
  @Override
  public CompletionStage<Boolean> releaseInOrder(Grant grant) {
    if (!link.holdingWrites().onCommandConnection()) {
      return LockBackend.super.releaseInOrder(grant);
    }
    AcquireRequest request = grant.request();
    String key = request.key();
    String lock = keys.lock(key);
    CompletableFuture<Boolean> answer;
    try {
      answer = RELEASE.<Long>runAsync(link.commands().async(), ScriptOutputType.INTEGER,
          releasesSentAgain::incrementAndGet, new String[] {lock, keys.yielded(key)}, request.ownerId(), keys.channel(key),
          Long.toString(request.fair() ? yieldMillis : 0), "0", link.publishCommand())
          .toCompletableFuture()
          .handle((result, error) -> {
            if (error == null) {
              return result == 1L;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            throw new CompletionException(cause instanceof RuntimeException failure
                ? link.translate(failure, "Releasing '" + key + "'") : cause);
          });
    } catch (RuntimeException e) {
      throw link.translate(e, "Releasing '" + key + "'");
    }
    ReleasesAhead.add(lock, link, answer);
    return answer;
  }

  /** Waits for the releases of {@code key} that other clients of this process sent ahead of their answers. */
  private void awaitOtherReleases(String key) {
    ReleasesAhead.awaitOthers(keys.lock(key), link, link.commandTimeout());
  }

  /**
   * The release script keeps an exclusive holding when its {@code waiting} flag shows that no other client tried to
   * take it; a shared entry or a permit, which the engine never hands over, it releases as {@link #release} does.
   */
  @Override
  public ChainEnd keepUnlessOthersWait(Grant grant, Duration expiry) {
    AcquireRequest request = grant.request();
    long result = runRelease(request, "Handing '" + request.key() + "' on", millis(expiry));
    return result == 2L ? ChainEnd.KEPT : result == 1L ? ChainEnd.RELEASED : ChainEnd.GONE;
  }

  /**
   * Runs the release script; a fair request's release that another client waited for yields it the next turn. A
   * holding it keeps (2) is extended, and goes where the writes that extend a holding go.
   */
  private long runRelease(AcquireRequest request, String what, String keepExpiryMillis) {
    String key = request.key();
    try {
      return link.holdingWrites().write(keys.lock(key), commands -> RELEASE.<Long>run(commands,
          ScriptOutputType.INTEGER, new String[] {keys.lock(key), keys.yielded(key)}, request.ownerId(),
          keys.channel(key), Long.toString(request.fair() ? yieldMillis : 0), keepExpiryMillis,
          link.publishCommand()), result -> result == 2L);
    } catch (RuntimeException e) {
      throw link.translate(e, what);
    }
  }

  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
    AcquireRequest request = grant.request();
    String key = request.key();
    CompletionStage<Long> renewed;
    try {
      renewed = link.holdingWrites().writeAsync(keys.lock(key), commands -> RENEW.runAsync(commands,
          ScriptOutputType.INTEGER, new String[] {keys.lock(key)}, request.ownerId(), millis(expiry)),
          result -> result == 1L);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(link.translate(e, "Renewing '" + key + "'"));
    }
    return renewed.thenApply(result -> result == 1L);
  }

  /**
   * holders.lua lists the key's holders in one step; then one PUBLISH (SPUBLISH on a cluster) per holder to its
   * client's channel. A holder whose client does not listen is counted all the same: it was asked.
   */
  @Override
  public int requestRelease(String key) {
    awaitOtherReleases(key);
    try {
      List<String> owners = HOLDERS.run(link.commands(), ScriptOutputType.MULTI, new String[] {keys.lock(key)});
      for (String owner : owners) {
        String channel = keys.releaseChannel(AcquireRequest.clientIdOf(owner));
        String message = owner + " " + key;
        link.commands().await("SPUBLISH".equals(link.publishCommand())
            ? link.commands().async().spublish(channel, message) : link.commands().async().publish(channel, message));
      }
      return owners.size();
    } catch (RuntimeException e) {
      throw link.translate(e, "Asking the holders of '" + key + "' to release it");
    }
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    releaseRequests = listener;
  }

  @Override
  public synchronized void listenForReleaseRequests(Grant grant) {
    if (listening) {
      return;
    }
    try {
      link.wakeUps().receive(keys.releaseChannel(grant.request().clientId()), this::releaseRequested);
    } catch (RuntimeException e) {
      throw link.translate(e, "Listening for requests to release '" + grant.request().key() + "'");
    }
    listening = true;
  }

  /** A message {@code OWNER_ID KEY} on the client's release channel. */
  private void releaseRequested(String message) {
    int space = message.indexOf(' ');
    if (space > 0) {
      releaseRequests.requested(message.substring(space + 1), message.substring(0, space));
    }
  }

  private static String flag(boolean value) {
    return value ? "1" : "0";
  }

  /** PEXPIRE's argument: never 0, which would delete the entry. */
  static String millis(Duration expiry) {
    return Long.toString(Math.max(1, expiry.toMillis()));
  }

  @Override
  public boolean rewritesHolders() {
    return true;
  }

  /** rewrite.lua: the holder field of the lock hash, if this owner still holds it; one script, no wait for replicas. */
  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    return HolderRewrites.rewrite(link, REWRITE, keys.lock(grant.request().key()), grant, holder);
  }

  @Override
  public void close() {
    link.close();
  }
}
