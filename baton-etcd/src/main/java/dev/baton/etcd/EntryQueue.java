package dev.baton.etcd;

import dev.baton.LockStatus;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.QueueRule;
import io.etcd.jetcd.KeyValue;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * One key's entries as {@code status} and {@code list} show them: the lock is held by its oldest entry, which holds
 * whatever its mode, and its waiters are the entries that do not hold by the rule their names give them; entries
 * that hold beside the oldest (shared entries, permits) are counted among its holders.
 */
final class EntryQueue {
  private final EtcdKeys keys;
  private final List<KeyValue> entries;

  /** The queue of {@code entries}, all of one key, in any order; at least one. */
  EntryQueue(EtcdKeys keys, List<KeyValue> entries) {
    this.keys = keys;
    this.entries = entries.stream().sorted(Comparator.comparingLong(KeyValue::getCreateRevision)).toList();
  }

  /** The oldest entry: the holder shown. */
  KeyValue holder() {
    return entries.get(0);
  }

  /** The status of lock {@code key}, whose holder's lease has {@code secondsLeft} to live (not positive: unknown). */
  LockStatus status(String key, long secondsLeft) {
    KeyValue holder = holder();
    List<QueueRule> rules = entries.stream().map(entry -> keys.ruleOf(entry.getKey())).toList();
    return QueueRule.describe(HolderRecord.read(EtcdKeys.text(holder.getValue())).held(key,
        holder.getCreateRevision(), secondsLeft > 0 ? Duration.ofSeconds(secondsLeft) : null, QueueRule.waiting(rules)),
        rules);
  }
}
