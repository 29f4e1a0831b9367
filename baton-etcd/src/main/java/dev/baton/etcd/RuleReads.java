package dev.baton.etcd;

import com.google.protobuf.ByteString;
import dev.baton.LockStatus.Mode;
import dev.baton.spi.QueueRule;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.api.Compare;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.OptionsUtil;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The reads that tell an acquisition's entry, by the core's {@link QueueRule}, whether it holds and which entry it
 * waits for. Each reads only the entries that can conflict with it (every entry of the key for an exclusive entry or
 * a permit; for a shared entry the exclusive ones alone, a range of names of their own), by create revision, and of
 * those no more than the rule's capacity, names and revisions without values.
 *
 * <p>What they cost: etcd answers a range read sorted by create revision, or bounded by one, by walking every name of
 * the range in its index (deleted names too, until compaction) and reading every live entry, as it pushes a limit down
 * only into reads in key order; it then sends at most {@code capacity} of them. So an exclusive entry or a permit pays
 * for every entry of the key (as a lock always did), a shared entry for the exclusive ones only: readers do not slow
 * each other down. One such read goes in the transaction that writes the entry, but only if a conflicting entry
 * exists ({@link #noneConflicting}); a waiter adds one read-only transaction per wake-up.
 */
final class RuleReads {
  /** A lock's read, the one most acquisitions make: built once. */
  private static final GetOption OLDEST_ENTRY = GetOption.builder().isPrefix(true).withKeysOnly(true)
      .withSortField(GetOption.SortTarget.CREATE).withSortOrder(GetOption.SortOrder.ASCEND).withLimit(1).build();

  private final EtcdKeys keys;
  private final String key;
  private final QueueRule rule;
  private final ByteSequence entries;
  /** Where the conflicting entries' names end, for a shared entry; null when every entry conflicts. */
  private final ByteSequence exclusiveEnd;
  private final GetOption oldest;
  private final Compare noneConflicting;
  private final RangeRequest oldestRequest;

  RuleReads(EtcdKeys keys, String key, QueueRule rule) {
    this.keys = keys;
    this.key = key;
    this.rule = rule;
    this.entries = keys.entries(key);
    this.exclusiveEnd = rule.conflictsWithAll() ? null : keys.exclusiveEntriesEnd(key);
    this.oldest = rule.equals(QueueRule.EXCLUSIVE) ? OLDEST_ENTRY
        : conflicting().withSortOrder(GetOption.SortOrder.ASCEND).build();
    ByteString from = bytes(entries);
    ByteString end = bytes(exclusiveEnd == null ? OptionsUtil.prefixEndOf(entries) : exclusiveEnd);
    this.noneConflicting = Compare.newBuilder().setKey(from).setRangeEnd(end).setTarget(Compare.CompareTarget.CREATE)
        .setResult(Compare.CompareResult.EQUAL).setCreateRevision(0).build();
    this.oldestRequest = RangeRequest.newBuilder().setKey(from).setRangeEnd(end).setKeysOnly(true)
        .setSortTarget(RangeRequest.SortTarget.CREATE).setSortOrder(RangeRequest.SortOrder.ASCEND)
        .setLimit(rule.capacity()).build();
  }

  /**
   * A comparison that holds when no entry can conflict with ours: over the range of the conflicting entries' names,
   * every create revision is 0, which etcd takes as true of an empty range (it compares a range with no key as one
   * absent key). An acquisition that finds it true holds, whatever its rule, and needs no {@link #oldest} read: the
   * uncontended acquisition's transaction is a put alone, which costs etcd less than a put and a sorted read.
   */
  Compare noneConflicting() {
    return noneConflicting;
  }

  /** {@link #oldest} as gRPC's request, for a transaction sent on gRPC's stub ({@link EntryPuts}). */
  RangeRequest oldestRequest() {
    return oldestRequest;
  }

  /**
   * The oldest conflicting entries, as many as the rule's capacity: enough for {@link #holds} to decide without
   * knowing our create revision beforehand, so this read goes in the transaction that writes our entry.
   */
  Op oldest() {
    return Op.get(entries, oldest);
  }

  /** The conflicting entries nearest to ours among those older, as many as the rule's capacity, nearest first. */
  Op nearestOlderThan(long ours) {
    return Op.get(entries, conflicting().withSortOrder(GetOption.SortOrder.DESCEND).withMaxCreateRevision(ours - 1)
        .build());
  }

  /** Whether our entry, created at revision {@code ours}, holds, from what {@link #oldest} read. */
  boolean holds(List<KeyValue> oldestConflicting, long ours) {
    // If as many as the capacity are older than ours, these are they; else every older one is here.
    List<KeyValue> older = new ArrayList<>(oldestConflicting.size());
    for (KeyValue entry : oldestConflicting) {
      if (entry.getCreateRevision() < ours) {
        older.add(entry);
      }
    }
    // Nothing older holds under every rule: the uncontended acquisition reads no entry's name.
    return older.isEmpty() || rule.awaited(modes(older)) == QueueRule.HOLDS;
  }

  /**
   * The entries ours waits for, from what {@link #nearestOlderThan} read: none if ours holds; else the one the rule
   * names and every conflicting entry between it and ours, as the departure of any of them may let ours in. For a
   * lock or a shared entry that is the one entry the rule names. For N permits it is the N nearest: when a nearer
   * holder than the one named goes, the first waiter holds; and no fewer watches than N can tell it so.
   */
  List<ByteSequence> awaited(List<KeyValue> nearestFirst) {
    List<KeyValue> ahead = new ArrayList<>(nearestFirst);
    Collections.reverse(ahead);
    int awaited = rule.awaited(modes(ahead));
    if (awaited == QueueRule.HOLDS) {
      return List.of();
    }
    return ahead.subList(awaited, ahead.size()).stream().map(KeyValue::getKey).toList();
  }

  private static ByteString bytes(ByteSequence bytes) {
    return ByteString.copyFrom(bytes.getBytes());
  }

  private GetOption.Builder conflicting() {
    GetOption.Builder read = GetOption.builder().withKeysOnly(true).withSortField(GetOption.SortTarget.CREATE)
        .withLimit(rule.capacity());
    return exclusiveEnd == null ? read.isPrefix(true) : read.withRange(exclusiveEnd);
  }

  /**
   * The modes of {@code entries}, in their order.
   *
   * @throws IllegalArgumentException if one is a permit of a semaphore of another number of permits than ours
   * @throws IllegalStateException if one is an entry of a key nested under ours, which etcd's own lock would count in
   *     our queue
   */
  private List<Mode> modes(List<KeyValue> entries) {
    List<Mode> modes = new ArrayList<>(entries.size());
    for (KeyValue entry : entries) {
      String nested = keys.nestedKeyOf(key, entry.getKey());
      if (nested != null) {
        throw new IllegalStateException("'" + key + "' was not taken: the lock '" + nested + "' is nested under it,"
            + " and etcd's own lock (compat=etcd) counts the entries of '" + nested + "' in the queue of '" + key
            + "'. Use keys of which none is another followed by '/'.");
      }
      QueueRule theirs = keys.ruleOf(entry.getKey());
      rule.checkSamePermits(key, theirs);
      modes.add(theirs.mode());
    }
    return modes;
  }
}
