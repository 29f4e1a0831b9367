package dev.baton.redis;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LockStatuses;
import dev.baton.spi.QueueRule;
import dev.baton.spi.WakeUp;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Locks in Redisson's layout ({@link RedisLockClient.Compat#REDISSON}), so that Baton's key {@code K} and Redisson's
 * {@code getLock("K")} and {@code getFencedLock("K")} exclude each other: the scripts in {@code redisson/} take,
 * release and renew the hash {@code K} as Redisson does (their headers say how), and a waiter subscribes to Redisson's
 * unlock channel, on which both sides publish at every release. Only exclusive entries exist there: read locks and
 * semaphores are refused. Across clients every waiter races for a released lock, as Redisson's do; there is no
 * yield, and a chain of local hand-overs always ends with a release.
 */
final class RedissonBackend implements LockBackend, AttemptStore {
  private static final LuaScript ACQUIRE = LuaScript.load("redisson/acquire.lua");
  private static final LuaScript RELEASE = LuaScript.load("redisson/release.lua");
  private static final LuaScript RENEW = LuaScript.load("redisson/renew.lua");
  private static final LuaScript REWRITE = LuaScript.load("redisson/rewrite.lua");
  private static final LuaScript LIST = LuaScript.load("redisson/list.lua");
  /** How many values list.lua returns per lock. */
  private static final int LOCK_FIELDS = 4;

  private final RedisLink link;
  private final RedissonKeys keys;

  private RedissonBackend(RedisLink link, RedissonKeys keys) {
    this.link = link;
    this.keys = keys;
  }

  /** Opens the command and subscription connections, or fails with nothing left running. */
  static RedissonBackend connect(RedisURI uri, String namespace, Duration commandTimeout, Duration connectTimeout,
      ReplicaAcks acks) {
    return new RedissonBackend(RedisLink.connect(uri, commandTimeout, connectTimeout, acks),
        new RedissonKeys(namespace));
  }

  /** Redisson's holders have no channel to hear a request on. */
  @Override
  public int requestRelease(String key) {
    throw new UnsupportedOperationException("A Redis client compatible with Redisson (compat=redisson) cannot ask the"
        + " holder of '" + key + "' to release it: Redisson's locks have no such request. Use a client without compat"
        + " for keys whose holders should hear requests.");
  }

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public void checkKey(String key) {
    // Redis keys and channels are binary-safe: every key the engine accepts can be stored.
  }

  /** Redisson's lock has no shared entries: a read lock and a semaphore are refused before they queue. */
  @Override
  public void checkAcquisition(String key, QueueRule rule, boolean fair) {
    if (rule.mode() != Mode.EXCLUSIVE) {
      throw new UnsupportedOperationException("'" + key + "' cannot be taken as " + rule + ": a Redis client"
          + " compatible with Redisson (compat=redisson) takes locks, write locks and leadership only, which Redisson's"
          + " RLock and RFencedLock on the same name exclude; Redisson's read-write locks and semaphores keep other"
          + " layouts. Use a client without compat for read locks and semaphores, on keys no Redisson client locks.");
    }
  }

  /**
   * The lock hash and its expiry in one script; the waiters are the client connections subscribed to its channel. A
   * hash at the name that no lock wrote is held by an unknown holder, as acquire.lua finds the name taken.
   */
  @Override
  public LockStatus status(String key) {
    try {
      List<Object> lock = LIST.run(link.commands(), ScriptOutputType.MULTI,
          new String[] {keys.lock(key), keys.token(key)}, "status");
      return LockReads.status(link, key, lock, keys.channel(key), RedissonBackend::held);
    } catch (RuntimeException e) {
      throw link.translate(e, "Reading the status of '" + key + "'");
    }
  }

  /**
   * SCAN for the names under the prefix (the whole database, a thousand keys a call), keeping the first {@code limit};
   * then one script reads those that are locks at one moment, and one PUBSUB NUMSUB counts their waiters.
   */
  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    try {
      List<String> found = LockScan.firstKeys(link.commands(), keys, keyPrefix, limit);
      if (found.isEmpty()) {
        return List.of();
      }
      List<Object> locks = link.readLocks(LIST, found, key -> new String[] {keys.lock(key), keys.token(key)});
      return LockReads.held(link, found, locks, LOCK_FIELDS, keys::channel, RedissonBackend::held);
    } catch (RuntimeException e) {
      throw link.translate(e, "Listing the locks under '" + keyPrefix + "'");
    }
  }

  /**
   * A held lock from list.lua's values from {@code offset} on: a holder's field, or '' for a hash that names none;
   * the token, absent where a plain RLock holds; the ms left, negative for a hash without expiry; the holder record.
   */
  private static LockStatus held(String key, List<Object> values, int offset, int waiters) {
    String owner = (String) values.get(offset);
    Object token = values.get(offset + 1);
    long ttl = (Long) values.get(offset + 2);
    Object holder = values.get(offset + 3);
    return LockStatuses.heldByPeer(key, owner.isEmpty() ? null : owner,
        token == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong((String) token)),
        ttl >= 0 ? Duration.ofMillis(ttl) : null, waiters,
        holder == null ? null : HolderRecord.read((String) holder).holder().orElse(null));
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new RedisAttempt(this, request);
  }

  /** One try of acquire.lua; Redisson's waiters record nothing, so neither do Baton's. */
  @Override
  public List<Object> acquire(AcquireRequest request, boolean waiting, long arrival, boolean mayBeRecorded) {
    String key = request.key();
    try {
      return link.holdingWrites().write(keys.lock(key), commands -> ACQUIRE.run(commands, ScriptOutputType.MULTI,
          new String[] {keys.lock(key), keys.token(key)}, request.ownerId(), RedisBackend.millis(request.entryTtl()),
          HolderRecord.write(request.holder()), RedisBackend.millis(request.ttl())), AttemptStore::granted);
    } catch (RuntimeException e) {
      throw link.translate(e, "Acquiring '" + key + "'");
    }
  }

  @Override
  public boolean recordsWaitingWriter(AcquireRequest request) {
    return false;
  }

  @Override
  public void withdraw(AcquireRequest request) {
    // Nothing is recorded of a waiter in Redisson's layout.
  }

  /** Subscribes to Redisson's unlock channel of the key, on which Redisson's releases and Baton's publish. */
  @Override
  public WakeUpChannels.Subscription subscribe(String key, WakeUp wakeUp) {
    try {
      return link.wakeUps().subscribe(keys.channel(key), wakeUp);
    } catch (RuntimeException e) {
      throw link.translate(e, "Waiting for '" + key + "'");
    }
  }

  @Override
  public boolean release(Grant grant) {
    return release(grant.request());
  }

  @Override
  public boolean release(AcquireRequest request) {
    String key = request.key();
    try {
      return RELEASE.<Long>run(link.commands(), ScriptOutputType.INTEGER, new String[] {keys.lock(key)},
          request.ownerId(), keys.channel(key)) == 1L;
    } catch (RuntimeException e) {
      throw link.translate(e, "Releasing '" + key + "'");
    }
  }

  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
    String key = grant.request().key();
    CompletionStage<Long> renewed;
    try {
      renewed = link.holdingWrites().writeAsync(key, commands -> RENEW.runAsync(commands, ScriptOutputType.INTEGER,
          new String[] {keys.lock(key)}, grant.request().ownerId(), RedisBackend.millis(expiry)),
          result -> result == 1L);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(link.translate(e, "Renewing '" + key + "'"));
    }
    return renewed.thenApply(result -> result == 1L);
  }

  @Override
  public boolean rewritesHolders() {
    return true;
  }

  /** rewrite.lua: the holder field of Redisson's lock hash, if this owner still holds it; one script, no wait for replicas. */
  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    return HolderRewrites.rewrite(link, REWRITE, keys.lock(grant.request().key()), grant, holder);
  }

  @Override
  public void close() {
    link.close();
  }
}
