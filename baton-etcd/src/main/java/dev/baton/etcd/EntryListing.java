package dev.baton.etcd;

import dev.baton.LockStatus;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.OptionsUtil;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Lists the locks held under a key prefix: range reads of the entries under the namespace and the prefix, sorted by
 * key (so the entries of one key come together, and keys in order), in pages of {@value #PAGE} entries all read at
 * the revision of the first, until the entries of more than {@code limit} keys are read or none are left. Each key's
 * entries, whatever their modes, make one lock, shown as {@link EntryQueue} shows it. Then the time to live of each
 * holder's lease, asked once per lease (a client has one for all its locks), all at once.
 */
final class EntryListing {
  private static final long PAGE = 1000;
  private static final ByteSequence LOWEST_BYTE = ByteSequence.from(new byte[] {0});

  private final KV kv;
  private final Lease leases;
  private final EtcdKeys keys;
  private final Duration timeout;
  private final String what;

  EntryListing(KV kv, Lease leases, EtcdKeys keys, Duration timeout, String keyPrefix) {
    this.kv = kv;
    this.leases = leases;
    this.keys = keys;
    this.timeout = timeout;
    this.what = "Listing the locks under '" + keyPrefix + "'";
  }

  /** The first {@code limit} locks held under {@code keyPrefix}, in key order. */
  List<LockStatus> list(String keyPrefix, int limit) {
    Map<String, EntryQueue> queues = new LinkedHashMap<>();
    Map<Long, CompletableFuture<LeaseTimeToLiveResponse>> ttls = new HashMap<>();
    queues(keyPrefix, limit).forEach((key, entries) -> {
      EntryQueue queue = new EntryQueue(keys, entries);
      queues.put(key, queue);
      ttls.computeIfAbsent(queue.holder().getLease(), lease -> leases.timeToLive(lease, LeaseOption.DEFAULT));
    });
    List<LockStatus> held = new ArrayList<>(queues.size());
    queues.forEach((key, queue) ->
        held.add(queue.status(key, EtcdCalls.await(ttls.get(queue.holder().getLease()), timeout, what).getTTL())));
    return held;
  }

  /** The entries of the first {@code limit} keys under the prefix, by key in key order. */
  private Map<String, List<KeyValue>> queues(String keyPrefix, int limit) {
    ByteSequence from = keys.entriesUnder(keyPrefix);
    ByteSequence end = OptionsUtil.prefixEndOf(from);
    Map<String, List<KeyValue>> queues = new LinkedHashMap<>();
    long revision = 0;
    boolean more = true;
    while (more && queues.size() <= limit) {
      GetOption.Builder page = GetOption.builder().withRange(end).withLimit(PAGE)
          .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.ASCEND);
      GetResponse entries = EtcdCalls.await(kv.get(from, (revision == 0 ? page : page.withRevision(revision)).build()),
          timeout, what);
      revision = entries.getHeader().getRevision();
      for (KeyValue entry : entries.getKvs()) {
        String key = keys.keyOf(entry.getKey());
        if (key != null) {
          queues.computeIfAbsent(key, k -> new ArrayList<>()).add(entry);
        }
        from = entry.getKey().concat(LOWEST_BYTE);
      }
      more = entries.isMore();
    }
    // A key past the limit may have been read in part: it is not listed.
    Map<String, List<KeyValue>> first = new LinkedHashMap<>();
    queues.entrySet().stream().limit(limit).forEach(queue -> first.put(queue.getKey(), queue.getValue()));
    return first;
  }
}
