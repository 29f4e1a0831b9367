package dev.baton.etcd;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Attempt;
import dev.baton.spi.Outcome;
import dev.baton.spi.WakeUp;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import java.util.List;

/**
 * One acquisition in etcd. A single transaction puts our entry, bound to the client's lease, if it is
 * not there yet, and reads the key's oldest entry in the same round trip; we hold the lock when the oldest
 * is ours. Otherwise we watch the deletion of our predecessor, the newest entry older than ours, from the
 * revision we read it at, so that a deletion in between is not missed. Each waiter contends once: fair.
 */
final class EtcdAttempt implements Attempt {
  private final EtcdBackend etcd;
  private final AcquireRequest request;
  private final ByteSequence entries;
  private final String what;
  private long leaseId;
  private ByteSequence entry;
  private boolean written;
  private Watch.Watcher watcher;

  EtcdAttempt(EtcdBackend etcd, AcquireRequest request) {
    this.etcd = etcd;
    this.request = request;
    this.entries = etcd.keys().entries(request.key());
    this.what = "Acquiring '" + request.key() + "'";
  }

  @Override
  public Outcome tryAcquire(WakeUp wakeUp) {
    stopWatching();
    long lease = etcd.leaseId();
    if (lease != leaseId) {
      leaseId = lease; // a new lease: the old entry went with the old one
      entry = etcd.keys().entry(request.key(), lease, request.ownerId());
    }
    written = true; // from here on the put may have happened, whatever the reply
    TxnResponse queued = EtcdCalls.await(etcd.kv().txn()
          .If(new Cmp(entry, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
          .Then(Op.put(entry, EtcdBackend.owner(request), PutOption.builder().withLeaseId(lease).build()),
              Op.get(entries, EtcdBackend.OLDEST))
          .Else(Op.get(entry, GetOption.DEFAULT), Op.get(entries, EtcdBackend.OLDEST))
          .commit(), etcd.timeout(), what);
    List<GetResponse> reads = queued.getGetResponses();
    long ours = queued.isSucceeded() ? queued.getHeader().getRevision() : reads.get(0).getKvs().get(0).getCreateRevision();
    List<KeyValue> oldest = reads.get(reads.size() - 1).getKvs();
    if (!oldest.isEmpty() && oldest.get(0).getCreateRevision() == ours) {
      return Outcome.granted(new EtcdGrant(request, entry, lease, ours));
    }
    return request.mayWait() ? watchPredecessor(ours, wakeUp) : Outcome.waitAtMost(etcd.maxTtl());
  }

  private Outcome watchPredecessor(long ours, WakeUp wakeUp) {
    GetResponse before = EtcdCalls.await(etcd.kv().get(entries, GetOption.builder().isPrefix(true)
        .withMaxCreateRevision(ours - 1).withSortField(GetOption.SortTarget.CREATE)
        .withSortOrder(GetOption.SortOrder.DESCEND).withLimit(1).build()), etcd.timeout(), what);
    if (before.getKvs().isEmpty()) {
      return Outcome.retryNow();
    }
    ByteSequence predecessor = before.getKvs().get(0).getKey();
    WatchOption fromThen = WatchOption.builder().withRevision(before.getHeader().getRevision() + 1).withNoPut(true).build();
    watcher = etcd.watch().watch(predecessor, fromThen, response -> wakeUp.signal(), error -> wakeUp.signal());
    return Outcome.waitAtMost(etcd.leaseTtl()); // the watch wakes us; this bounds a lost watch event
  }

  @Override
  public void abandon() {
    stopWatching();
    if (written) {
      EtcdCalls.await(etcd.kv().delete(entry, DeleteOption.DEFAULT), etcd.timeout(), "Leaving the queue of '"
          + request.key() + "'");
      written = false;
    }
  }

  private void stopWatching() {
    if (watcher != null) {
      watcher.close();
      watcher = null;
    }
  }
}
