package dev.baton.etcd;

import dev.baton.BackendUnavailableException;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition in etcd. A single transaction puts our entry, bound to the client's lease, if it is
 * not there yet, and reads the key's oldest entries in the same round trip, as many as the request's
 * {@link dev.baton.spi.QueueRule#capacity() rule} lets hold at once (one for a lock); we hold when ours is among
 * them. Otherwise we watch the deletion of the entry the rule says we wait for (a lock's: our predecessor, the
 * newest entry older than ours) from the revision we read it at, so that a deletion in between is not missed.
 * Each waiter writes once, then only reads when its watch fires: fair, and one write per acquisition. Entries
 * carry no mode yet, so every entry conflicts with every other: the read-write lock will add it.
 */
final class EtcdAttempt implements Attempt {
  private static final Logger log = LoggerFactory.getLogger(EtcdAttempt.class);

  private final EtcdBackend etcd;
  private final AcquireRequest request;
  private final ByteSequence entries;
  private final String what;
  private final ByteSequence owner;
  /** How many entries may hold at once: the oldest that many hold. */
  private final int capacity;
  private final GetOption oldest;
  private long leaseId;
  private ByteSequence entry;
  private long ours;
  private boolean written;
  private EtcdWatches.Watching watching;

  EtcdAttempt(EtcdBackend etcd, AcquireRequest request) {
    this.etcd = etcd;
    this.request = request;
    this.entries = etcd.keys().entries(request.key());
    this.what = "Acquiring '" + request.key() + "'";
    this.owner = EtcdKeys.bytes(request.ownerRecord());
    this.capacity = request.rule().capacity();
    this.oldest = EtcdBackend.oldest(capacity);
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    stopWatching();
    long lease = etcd.leaseId();
    // Counted from before the entry is written or read, as the engine counts the lock's expiry.
    long neededUntil = System.nanoTime() + request.expiry().toNanos();
    CompletableFuture<Long> leaseAlive = etcd.aliveUntil(lease, neededUntil);
    Place place = lease == leaseId && ours != 0 ? lookUp() : null;
    if (place == null) {
      Place queued = enqueue(lease);
      if (queued == null) {
        return Outcome.retryNow(); // a stale entry of this client's was in the way, and is gone now
      }
      place = queued.first() || !request.mayWait() ? queued : lookUp();
      if (place == null) {
        return Outcome.retryNow(); // our entry went as soon as it came: its lease expired, or an operator
      }
    }
    if (place.first()) {
      // The entry lives as long as the client's lease, which a keep-alive that fell behind may leave shorter
      // than the lock's expiry: then the lock is not granted yet, and the next try looks again.
      LeaseLife.requireAlive(EtcdCalls.await(leaseAlive, etcd.timeout(), what), neededUntil, what);
      return Outcome.granted(new EtcdGrant(request, entry, lease, ours));
    }
    if (!request.mayWait()) {
      return Outcome.waitAtMost(etcd.maxTtl());
    }
    watching = etcd.watches().onDeletion(place.predecessor(), place.readAt() + 1, wakeUp::signal);
    return Outcome.waitAtMost(etcd.leaseTtl()); // the watch wakes us; this bounds a watch that went quiet
  }

  /**
   * Puts our entry unless it is there, and reads the oldest entries, in one write transaction; null if the
   * entry was there from an earlier acquisition of this client, which is then removed.
   */
  private Place enqueue(long lease) {
    if (lease != leaseId) {
      leaseId = lease; // a new lease: the old entry went with the old one
      entry = etcd.keys().entry(request.key(), lease);
    }
    written = true; // from here on the put may have happened, whatever the reply
    TxnResponse queued;
    try {
      queued = EtcdCalls.await(etcd.kv().txn()
          .If(new Cmp(entry, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
          .Then(Op.put(entry, owner, PutOption.builder().withLeaseId(lease).build()), Op.get(entries, oldest))
          .Else(Op.get(entry, GetOption.DEFAULT), Op.get(entries, oldest))
          .commit(), etcd.timeout(), what);
    } catch (RuntimeException e) {
      etcd.leaseRefused(lease, e);
      throw e;
    }
    List<GetResponse> reads = queued.getGetResponses();
    if (queued.isSucceeded()) {
      ours = queued.getHeader().getRevision();
    } else {
      KeyValue found = reads.get(0).getKvs().get(0);
      if (!found.getValue().equals(owner)) {
        removeStale(found);
        return null;
      }
      ours = found.getCreateRevision(); // our own put, whose reply was lost
    }
    return new Place(isAmong(reads.get(reads.size() - 1)), null, queued.getHeader().getRevision());
  }

  /**
   * Deletes an entry of this client's lease left by an earlier acquisition of the key: one that was
   * released, abandoned or given up here while its deletion had not reached etcd yet. Only one thread of a
   * client talks to etcd about a key at a time, so no holder of this client owns it any more.
   */
  private void removeStale(KeyValue stale) {
    log.debug("Removing the entry of '{}' that owner {} left behind", request.key(),
        HolderRecord.read(EtcdKeys.text(stale.getValue())).ownerId());
    etcd.deleteIf(entry, CmpTarget.createRevision(stale.getCreateRevision()), what);
  }

  /**
   * Reads, in one read-only transaction, whether our entry is still queued, the oldest entries and the entry we
   * wait for; null when our entry is gone.
   */
  private Place lookUp() {
    TxnResponse read = EtcdCalls.await(etcd.kv().txn()
        .Then(Op.get(entry, GetOption.DEFAULT), Op.get(entries, oldest), Op.get(entries, GetOption.builder()
            .isPrefix(true).withMaxCreateRevision(ours - 1).withSortField(GetOption.SortTarget.CREATE)
            .withSortOrder(GetOption.SortOrder.DESCEND).withLimit(capacity).build()))
        .commit(), etcd.timeout(), what);
    List<GetResponse> reads = read.getGetResponses();
    List<KeyValue> ourEntry = reads.get(0).getKvs();
    if (ourEntry.isEmpty() || ourEntry.get(0).getCreateRevision() != ours) {
      ours = 0;
      return null;
    }
    // The nearest entries older than ours, nearest first: the farthest of them is the one we wait for.
    List<KeyValue> before = reads.get(2).getKvs();
    return new Place(isAmong(reads.get(1)), before.isEmpty() ? null : before.get(before.size() - 1).getKey(),
        read.getHeader().getRevision());
  }

  /** Whether our entry is among the oldest entries read: then it holds. */
  private boolean isAmong(GetResponse oldestEntries) {
    return oldestEntries.getKvs().stream().anyMatch(entry -> entry.getCreateRevision() == ours);
  }

  @Override
  public void abandon() {
    stopWatching();
    if (written) {
      // Only our own entry: a retry of this clean-up may run after a later acquisition took the same entry key.
      etcd.deleteIf(entry, CmpTarget.value(owner), "Leaving the queue of '" + request.key() + "'");
      written = false;
      ours = 0;
    }
  }

  private void stopWatching() {
    if (watching != null) {
      watching.stop();
      watching = null;
    }
  }

  /**
   * Where our entry stands in the key's queue.
   *
   * @param first whether it is among the oldest the rule lets hold: we hold
   * @param predecessor the entry we wait for, or null when unknown or first
   * @param readAt the revision the queue was read at
   */
  private record Place(boolean first, ByteSequence predecessor, long readAt) {}
}
