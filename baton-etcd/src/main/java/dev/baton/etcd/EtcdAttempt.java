package dev.baton.etcd;

import dev.baton.etcd.EntryNames.OwnEntry;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition in etcd. A single transaction puts our entry, bound to the client's lease and named for the
 * request's {@link dev.baton.spi.QueueRule rule} ({@link EtcdKeys}), and reads in the same round trip the key's
 * oldest entries that can conflict with it, as many as the rule lets hold at once (a lock's: the oldest entry); the rule says from them whether we hold ({@link RuleReads}). Otherwise we read the conflicting entries
 * nearest to ours and watch the deletion of those we wait for (a lock's: our predecessor, the newest entry older than
 * ours; a shared entry's: the nearest exclusive entry ahead; N permits': the N nearest) from the revision we read them
 * at, so that a deletion in between is not missed. Each waiter writes once, then only reads when its watch fires:
 * fair, and one write per acquisition.
 */
final class EtcdAttempt implements Attempt {
  private static final Logger log = LoggerFactory.getLogger(EtcdAttempt.class);

  private final AttemptStore etcd;
  private final AcquireRequest request;
  private final String what;
  private final ByteSequence owner;
  private final RuleReads reads;
  private long leaseId;
  private OwnEntry entry;
  private long ours;
  /**
   * The last put of our entry, answered or not, until the entry is deleted: null while nothing of ours can be in etcd.
   * A clean-up waits for its answer ({@link #abandon()}).
   */
  private CompletableFuture<TxnResponse> put;
  private EtcdWatches.Watching watching;

  /** An acquisition of {@code request}'s key in {@code etcd}, whose entries of that key {@code reads} reads. */
  EtcdAttempt(AttemptStore etcd, RuleReads reads, AcquireRequest request) {
    this.etcd = etcd;
    this.request = request;
    this.what = "Acquiring '" + request.key() + "'";
    this.owner = EtcdKeys.bytes(request.ownerRecord());
    this.reads = reads;
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    stopWatching();
    long lease = etcd.leaseId();
    // Counted from before the entry is written or read, as the engine counts the lock's expiry.
    long neededUntil = System.nanoTime() + request.entryTtl().toNanos();
    CompletableFuture<Long> leaseAlive = etcd.aliveUntil(lease, neededUntil);
    Place place = lease == leaseId && ours != 0 ? lookUp() : null;
    if (place == null) {
      Place queued = enqueue(lease);
      if (queued == null) {
        return Outcome.retryNow(); // a stale entry of this client's was in the way, and is gone now
      }
      place = queued.holds() || !request.mayWait() ? queued : lookUp();
      if (place == null) {
        return Outcome.retryNow(); // our entry went as soon as it came: its lease expired, or an operator
      }
    }
    if (place.holds()) {
      // The entry lives as long as the client's lease, which a keep-alive that fell behind may leave shorter
      // than the lock's expiry: then the lock is not granted yet, and the next try looks again.
      LeaseLife.requireAlive(etcd.await(leaseAlive, what), neededUntil, what);
      return Outcome.granted(new EtcdGrant(request, entry, lease, ours));
    }
    if (!request.mayWait()) {
      return Outcome.waitAtMost(etcd.maxTtl());
    }
    watching = etcd.onDeletionOfAny(place.awaited(), place.readAt() + 1, wakeUp::signal);
    return Outcome.waitAtMost(etcd.sessionTimeout()); // the watch wakes us; this bounds a watch that went quiet
  }

  /**
   * Puts our entry and reads the oldest conflicting entries if there are any, in one write transaction; null if an
   * entry of an earlier acquisition of this client was under our name, which is then removed.
   *
   * <p>The put is not guarded: only this client writes names with its lease in them, and the entry the put replaced,
   * if any, comes back with the answer ({@code prevKV}), so that nothing is lost by not asking first. The transaction's
   * one comparison chooses whether to read: an uncontended acquisition costs etcd a put and a look at an empty range
   * of names, in one round trip ({@link EntryPuts}).
   */
  private Place enqueue(long lease) {
    if (lease != leaseId) {
      leaseId = lease; // a new lease: the old entry went with the old one
      if (entry != null) {
        entry.free();
      }
      entry = etcd.takeEntryName(request.key(), lease, request.rule());
    }
    ByteSequence name = entry.name();
    TxnResponse queued;
    try {
      put = etcd.putAndRead(name, owner, lease, reads);
      queued = etcd.await(put, what);
    } catch (RuntimeException e) {
      etcd.leaseRefused(lease, e);
      throw e;
    }
    PutResponse put = queued.getPutResponses().get(0);
    if (!put.hasPrevKv()) {
      ours = queued.getHeader().getRevision();
    } else if (put.getPrevKv().getValue().equals(owner)) {
      ours = put.getPrevKv().getCreateRevision(); // our own put, sent again after its reply was lost
    } else {
      // The put kept that entry's place in the queue, which is not ours to take: remove it, and queue afresh.
      removeStale(put.getPrevKv());
      return null;
    }
    // No read: etcd found no entry that could conflict with ours, which holds.
    List<KeyValue> oldest = queued.getGetResponses().isEmpty() ? List.of() : queued.getGetResponses().get(0).getKvs();
    return new Place(reads.holds(oldest, ours), List.of(), queued.getHeader().getRevision());
  }

  /**
   * Deletes an entry under our name left by an earlier acquisition of this client: one that was released, abandoned
   * or given up here while its deletion had not reached etcd yet. No other acquisition of the client under way
   * uses our name ({@link EntryNames}), so no holder of this client owns it any more.
   */
  private void removeStale(KeyValue stale) {
    log.debug("Removing the entry of '{}' that owner {} left behind", request.key(),
        HolderRecord.read(EtcdKeys.text(stale.getValue())).ownerId());
    etcd.deleteIf(entry.name(), CmpTarget.createRevision(stale.getCreateRevision()), what);
  }

  /**
   * Reads, in one read-only transaction, whether our entry is still queued and the conflicting entries nearest to
   * it, which tell whether it holds and which entry it waits for; null when our entry is gone.
   */
  private Place lookUp() {
    TxnResponse read = etcd.read(what, Op.get(entry.name(), GetOption.DEFAULT), reads.nearestOlderThan(ours));
    List<KeyValue> ourEntry = read.getGetResponses().get(0).getKvs();
    if (ourEntry.isEmpty() || ourEntry.get(0).getCreateRevision() != ours) {
      ours = 0;
      return null;
    }
    List<ByteSequence> awaited = reads.awaited(read.getGetResponses().get(1).getKvs());
    return new Place(awaited.isEmpty(), awaited, read.getHeader().getRevision());
  }

  @Override
  public void abandon() {
    stopWatching();
    if (entry == null) {
      return; // nothing written: the lease was not known yet
    }
    try {
      if (put != null) {
        awaitPut();
        // Only our own entry: a retry of this clean-up may run after a later acquisition took the same name.
        etcd.deleteIf(entry.name(), CmpTarget.value(owner), "Leaving the queue of '" + request.key() + "'");
        put = null;
        ours = 0;
      }
    } finally {
      entry.free(); // if the entry is still there, the next acquisition under this name removes it as left behind
    }
  }

  /**
   * Waits for the answer to our last put, when an interrupt or a timeout left it unanswered. Sent to another member
   * of the cluster, or only handled later by the same one, our delete could otherwise be applied first, and the put
   * would then leave an entry behind that nobody removes while this client's lease lives, and that every later
   * acquisition of the key waits behind. A put still unanswered after the timeout fails the clean-up, which is
   * retried; a put that failed is taken as not applied.
   */
  private void awaitPut() {
    try {
      etcd.await(put, what);
    } catch (RuntimeException failed) {
      if (!put.isDone()) {
        throw failed;
      }
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
   * @param holds whether the rule lets it hold
   * @param awaited the entries whose departure may let us in; none when unknown or when we hold
   * @param readAt the revision the queue was read at
   */
  private record Place(boolean holds, List<ByteSequence> awaited, long readAt) {}
}
