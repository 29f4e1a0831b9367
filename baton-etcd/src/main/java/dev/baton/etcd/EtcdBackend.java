package dev.baton.etcd;

import dev.baton.BackendUnavailableException;
import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.PermissionDeniedException;
import dev.baton.etcd.EntryNames.OwnEntry;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Grant;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.KeyWatch;
import dev.baton.spi.LockBackend;
import dev.baton.spi.LockStatuses;
import dev.baton.spi.LossListener;
import dev.baton.spi.LossReporter;
import dev.baton.spi.QueueRule;
import dev.baton.spi.ReleaseRequestListener;
import dev.baton.spi.WakeUp;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.OptionsUtil;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.net.URI;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Baton's lock protocol on an etcd cluster: entries bound to the client's lease, ordered by create revision. Its
 * attempts ({@link EtcdAttempt}) see it as their {@link AttemptStore}.
 *
 * <p>A request to release is a put of {@code OWNER_ID KEY} on the holder's client's own key
 * ({@link EtcdKeys#releaseRequests}), under the asking client's lease and deleted at once, so that nothing is left
 * behind; a client watches its key for puts from its first lease that wants to hear requests until it closes.
 */
final class EtcdBackend implements LockBackend, AttemptStore {
  private static final Logger log = LoggerFactory.getLogger(EtcdBackend.class);
  /** How long a close waits for each of the client's threads to end. */
  private static final Duration THREADS_END_WITHIN = Duration.ofSeconds(2);

  private final Client client;
  private final KV kv;
  private final EtcdWatches watches;
  private final EntryDeletes entryDeletes;
  private final EntryPuts entryPuts;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread thread = new Thread(task, "baton-etcd-upkeep");
    thread.setDaemon(true);
    return thread;
  });
  private final LeaseLife leaseLife;
  private final EntryReads entryReads;
  private final EtcdKeys keys;
  private final EntryNames entryNames;
  private final Duration timeout;
  private final String endpoints;
  private volatile EtcdSession session;
  private final LossReporter losses = new LossReporter();
  private volatile ReleaseRequestListener releaseRequests = (key, ownerId) -> { };
  /** Guarded by this: the watch of the client's release-request key, once it listens; null until then. */
  private Watch.Watcher releaseWatch;

  private EtcdBackend(Client client, EtcdKeys keys, Duration timeout, String endpoints) {
    this.client = client;
    this.kv = client.getKVClient();
    this.watches = new EtcdWatches(JetcdStubs.watch(client));
    this.entryDeletes = new EntryDeletes(JetcdStubs.kv(client), timeout);
    this.entryPuts = new EntryPuts(JetcdStubs.kvAsync(client), kv);
    this.leaseLife = new LeaseLife(client.getLeaseClient());
    this.entryReads = new EntryReads(kv, scheduler);
    this.keys = keys;
    this.entryNames = new EntryNames(keys);
    this.timeout = timeout;
    this.endpoints = endpoints;
  }

  /** Connects and grants the client's lease, or fails with nothing left running. */
  static EtcdBackend connect(EtcdSettings settings) {
    String endpoints = settings.endpoints().stream().map(Object::toString).collect(Collectors.joining(","));
    ClientBuilder builder = Client.builder()
        .endpoints(settings.endpoints().toArray(URI[]::new))
        .connectTimeout(settings.commandTimeout())
        .retryChronoUnit(ChronoUnit.MILLIS)
        .retryDelay(50)
        .retryMaxDelay(500)
        .retryMaxDuration(settings.commandTimeout())
        .waitForReady(false); // a call to an unreachable cluster fails at once, so acquires keep their wait time
    if (settings.user() != null) {
      builder.user(EtcdKeys.bytes(settings.user())).password(EtcdKeys.bytes(settings.password()));
    }
    if (settings.tls()) {
      builder.sslContext(EtcdTls.context(settings));
    }
    Client client = builder.build();
    EtcdBackend backend = new EtcdBackend(client, new EtcdKeys(settings.namespace(), settings.etcdCompatible()),
        settings.commandTimeout(), endpoints);
    try {
      backend.session = EtcdSession.open(client.getLeaseClient(), settings.sessionTimeout(), settings.commandTimeout(),
          backend::leaseExpired, backend.scheduler);
      return backend;
    } catch (RuntimeException e) {
      backend.closeClient();
      if (e instanceof PermissionDeniedException) {
        throw new PermissionDeniedException("etcd at " + endpoints + " refused the client: " + e.getMessage(), e);
      }
      throw new BackendUnavailableException("Cannot connect to etcd at " + endpoints + ": " + e.getMessage()
          + ". Check that etcd runs there, that the user and password are right"
          + (settings.tls() ? ", and that each side trusts the other's certificate." : "."), e);
    }
  }

  /** etcd no longer has lease {@code leaseId}: every entry bound to it is gone, and every lock held on it lost. */
  private void leaseExpired(long leaseId) {
    entryNames.forget(leaseId);
    losses.sessionExpired();
  }

  @Override
  public void setLossListener(LossListener listener) {
    losses.set(listener);
  }

  @Override
  public String name() {
    return "etcd";
  }

  @Override
  public void checkKey(String key) {
    // etcd keys are bytes: every key the engine accepts can be stored.
  }

  /**
   * A lease counts as held for a third of the etcd lease's ttl after a renewal found the lease with at
   * least that long to live (the keep-alive stream keeps it above two thirds), so never past its expiry.
   */
  @Override
  public Duration maxTtl() {
    return Duration.ofNanos(session.ttl().toNanos() / 3); // asked on every acquire: Duration.dividedBy divides BigDecimals
  }

  @Override
  public LockStatus status(String key) {
    String what = "Reading the status of '" + key + "'";
    GetResponse entries = EtcdCalls.await(kv.get(keys.entries(key), GetOption.builder().isPrefix(true).build()),
        timeout, what);
    if (entries.getKvs().isEmpty()) {
      return LockStatuses.free(key, 0);
    }
    EntryQueue queue = new EntryQueue(keys, entries.getKvs());
    return queue.status(key, EtcdCalls.await(client.getLeaseClient().timeToLive(queue.holder().getLease(),
        LeaseOption.DEFAULT), timeout, what).getTTL());
  }

  /**
   * Watches the key's entries from the revision after a count of them, so that no change after this returns is
   * missed, though etcd confirms the watch later.
   */
  @Override
  public Optional<KeyWatch> watchKey(String key, WakeUp changed) {
    ByteSequence from = keys.entries(key);
    GetResponse counted = EtcdCalls.await(kv.get(from, GetOption.builder().isPrefix(true).withCountOnly(true).build()),
        timeout, "Watching '" + key + "'");
    EtcdWatches.Watching watching = watches.onChangeIn(from, OptionsUtil.prefixEndOf(from),
        counted.getHeader().getRevision() + 1, changed::signal);
    return Optional.of(watching::stop);
  }

  /** Range reads of the entries under the prefix, grouped by key ({@link EntryListing}); each holder as {@link #status}. */
  @Override
  public List<LockStatus> list(String keyPrefix, int limit) {
    return new EntryListing(kv, client.getLeaseClient(), keys, timeout, keyPrefix).list(keyPrefix, limit);
  }

  /**
   * Reads the key's entries, and puts a request on the key of each holder's client (then deletes it: the watch sees
   * the put). Compatible with etcd's own lock, refuses: its holders could not hear it.
   */
  @Override
  public int requestRelease(String key) {
    if (keys.etcdCompatible()) {
      throw new UnsupportedOperationException("An etcd client compatible with etcd's own lock (compat=etcd) cannot ask"
          + " the holder of '" + key + "' to release it: etcd's lock has no such request. Use a client without compat.");
    }
    String what = "Asking the holders of '" + key + "' to release it";
    GetResponse entries = EtcdCalls.await(kv.get(keys.entries(key), GetOption.builder().isPrefix(true).build()),
        timeout, what);
    List<Mode> ahead = new ArrayList<>();
    int asked = 0;
    for (KeyValue entry : entries.getKvs().stream().sorted(Comparator.comparingLong(KeyValue::getCreateRevision))
        .toList()) {
      QueueRule rule = keys.ruleOf(entry.getKey());
      if (rule.awaited(ahead) == QueueRule.HOLDS) {
        String ownerId = HolderRecord.read(EtcdKeys.text(entry.getValue())).ownerId();
        ByteSequence target = keys.releaseRequests(AcquireRequest.clientIdOf(ownerId));
        EtcdCalls.await(kv.put(target, EtcdKeys.bytes(ownerId + " " + key),
            PutOption.builder().withLeaseId(session.leaseId()).build()), timeout, what);
        EtcdCalls.await(kv.delete(target), timeout, what);
        asked++;
      }
      ahead.add(rule.mode());
    }
    return asked;
  }

  @Override
  public void setReleaseRequestListener(ReleaseRequestListener listener) {
    releaseRequests = listener;
  }

  /** Watches the client's release-request key for puts from the revision after the one read now, so none is missed. */
  @Override
  public synchronized void listenForReleaseRequests(Grant grant) {
    if (releaseWatch != null) {
      return;
    }
    ByteSequence target = keys.releaseRequests(grant.request().clientId());
    long revision = EtcdCalls.await(kv.get(target, GetOption.builder().withCountOnly(true).build()), timeout,
        "Listening for requests to release '" + grant.request().key() + "'").getHeader().getRevision();
    releaseWatch = client.getWatchClient().watch(target,
        WatchOption.builder().withRevision(revision + 1).withNoDelete(true).build(),
        Watch.listener(this::releaseRequested,
            error -> log.debug("The watch of requests to release on {} failed", endpoints, error)));
  }

  /** Puts of {@code OWNER_ID KEY} on the client's release-request key. */
  private void releaseRequested(WatchResponse response) {
    for (WatchEvent event : response.getEvents()) {
      String request = EtcdKeys.text(event.getKeyValue().getValue());
      int space = request.indexOf(' ');
      if (event.getEventType() == WatchEvent.EventType.PUT && space > 0) {
        releaseRequests.requested(request.substring(space + 1), request.substring(0, space));
      }
    }
  }

  /** Compatible with etcd's own lock, refuses the entries it has not: a read lock's, a semaphore's. */
  @Override
  public void checkAcquisition(String key, QueueRule rule, boolean fair) {
    if (keys.etcdCompatible() && rule.mode() != Mode.EXCLUSIVE) {
      throw new UnsupportedOperationException("'" + key + "' cannot be taken as " + rule + ": an etcd client"
          + " compatible with etcd's own lock (compat=etcd) takes locks, write locks and leadership only, as etcd's"
          + " lock has no shared entries. Use a client without compat for read locks and semaphores.");
    }
  }

  @Override
  public Attempt newAttempt(AcquireRequest request) {
    return new EtcdAttempt(this, new RuleReads(keys, request.key(), request.rule()), request);
  }

  /**
   * Checks that our entry is still there and that the lease the keep-alive stream renews lives at least
   * {@code expiry} from now, the time the engine will count the lock as held. The entry is read in a
   * transaction with the other renewals of the tick; the lease's life is shared by all its locks.
   */
  @Override
  public CompletionStage<Boolean> renew(Grant grant, Duration expiry) {
    EtcdGrant etcdGrant = (EtcdGrant) grant;
    long neededUntil = System.nanoTime() + expiry.toNanos();
    CompletableFuture<Long> alive = leaseLife.aliveUntil(etcdGrant.leaseId(), neededUntil);
    return entryReads.createRevision(etcdGrant.entry().name()).thenCombine(alive, (revision, aliveUntil) -> {
      boolean ours = revision == etcdGrant.createRevision();
      if (ours) {
        LeaseLife.requireAlive(aliveUntil, neededUntil, "Renewing '" + grant.request().key() + "'");
      } else {
        etcdGrant.entry().free(); // gone for good: the engine counts the lock as lost and will not release it
      }
      return ours;
    });
  }

  /**
   * Deletes our entry, and frees its name whatever the answer: if the entry is still there, the next acquisition under
   * that name removes it as left behind. An exclusive entry goes by a plain delete sent once ({@link EntryDeletes}),
   * which costs etcd and the client less than a transaction: only this acquisition writes that name until the delete
   * is answered ({@link EntryNames}). Unanswered, the name is retired and the entry deleted as any other: by a
   * transaction that deletes it only if it is still the one we were granted (the same create revision).
   */
  @Override
  public boolean release(Grant grant) {
    EtcdGrant etcdGrant = (EtcdGrant) grant;
    OwnEntry entry = etcdGrant.entry();
    String what = "Releasing '" + grant.request().key() + "'";
    try {
      if (entry.claimDeleteByName()) {
        try {
          return entryDeletes.delete(entry.name(), what);
        } catch (RuntimeException unanswered) {
          entry.retire();
          log.debug("{}: the delete went unanswered; its entry name is retired", what, unanswered);
        }
      }
      return deleteIf(entry.name(), CmpTarget.createRevision(etcdGrant.createRevision()), what);
    } finally {
      entry.free();
    }
  }

  @Override
  public boolean rewritesHolders() {
    return true;
  }

  /**
   * A put of our entry's record in a transaction guarded by its create revision, so that it writes only the entry we
   * were granted, never one gone or made again; the put keeps the entry on its lease (that lease is alive while the
   * entry is: an expired lease deletes its keys). The put changes the entry's mod revision only: its fencing token is
   * its create revision, and waiters watch for deletions alone.
   */
  @Override
  public boolean rewriteHolder(Grant grant, LockHolder holder) {
    EtcdGrant etcdGrant = (EtcdGrant) grant;
    ByteSequence entry = etcdGrant.entry().name();
    ByteSequence record = EtcdKeys.bytes(HolderRecord.write(grant.request().ownerId(), holder));
    return await(kv.txn()
        .If(new Cmp(entry, Cmp.Op.EQUAL, CmpTarget.createRevision(etcdGrant.createRevision())))
        .Then(Op.put(entry, record, PutOption.builder().withLeaseId(etcdGrant.leaseId()).build()))
        .commit(), "Rewriting the holder of '" + grant.request().key() + "'").isSucceeded();
  }

  @Override
  public boolean deleteIf(ByteSequence entry, CmpTarget<?> expected, String what) {
    return await(kv.txn()
        .If(new Cmp(entry, Cmp.Op.EQUAL, expected))
        .Then(Op.delete(entry, DeleteOption.DEFAULT))
        .commit(), what).isSucceeded();
  }

  @Override
  public CompletableFuture<Long> aliveUntil(long leaseId, long neededUntil) {
    return leaseLife.aliveUntil(leaseId, neededUntil);
  }

  @Override
  public long leaseId() {
    return session.leaseId();
  }

  @Override
  public OwnEntry takeEntryName(String key, long leaseId, QueueRule rule) {
    return entryNames.take(key, leaseId, rule);
  }

  @Override
  public CompletableFuture<TxnResponse> putAndRead(ByteSequence entry, ByteSequence owner, long leaseId,
      RuleReads reads) {
    return entryPuts.putAndRead(entry, owner, leaseId, reads);
  }

  @Override
  public TxnResponse read(String what, Op... reads) {
    return await(kv.txn().Then(reads).commit(), what);
  }

  @Override
  public EtcdWatches.Watching onDeletionOfAny(List<ByteSequence> entries, long fromRevision, Runnable wakeUp) {
    return watches.onDeletionOfAny(entries, fromRevision, wakeUp);
  }

  @Override
  public <T> T await(CompletableFuture<T> call, String what) {
    return EtcdCalls.await(call, timeout, what);
  }

  @Override
  public void leaseRefused(long id, RuntimeException error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("requested lease not found")) {
        session.suspect(id);
        return;
      }
    }
  }

  @Override
  public Duration sessionTimeout() {
    return session.ttl();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (releaseWatch != null) {
        releaseWatch.close();
      }
    }
    watches.close();
    session.close();
    closeClient();
  }

  /** Stops the upkeep and jetcd, and waits, bounded, for their threads to end: a closed client leaves none behind. */
  private void closeClient() {
    scheduler.shutdownNow();
    JetcdStubs.close(client, THREADS_END_WITHIN);
    try {
      scheduler.awaitTermination(THREADS_END_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "etcd at " + endpoints;
  }
}
