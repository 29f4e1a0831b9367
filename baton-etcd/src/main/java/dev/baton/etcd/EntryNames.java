package dev.baton.etcd;

import dev.baton.LockStatus.Mode;
import dev.baton.spi.QueueRule;
import io.etcd.jetcd.ByteSequence;
import java.util.HashMap;
import java.util.Map;

/**
 * The entry names a client's acquisitions write ({@link EtcdKeys}). An exclusive entry's name is one per lease and
 * key. A client may have several shared entries or permits on a key at once, so each of those also takes a slot:
 * the lowest number that no other acquisition of the lease uses on the key, until it ends (released, abandoned, found
 * gone). A client that takes a read lock over and over thus writes the same few names, not one per acquisition:
 * etcd keeps every deleted name in its index until compaction, and every read of the queue walks them.
 *
 * <p>Since no two acquisitions of a client that are under way use one name at once, an entry found under our name
 * that is not ours was left by one that has ended, and is ours to remove.
 */
final class EntryNames {
  private final EtcdKeys keys;
  /** The slots taken, by lease and key. */
  private final Map<LeaseKey, Map<Integer, OwnEntry>> taken = new HashMap<>();

  EntryNames(EtcdKeys keys) {
    this.keys = keys;
  }

  /** A name for an acquisition under {@code rule} of {@code key} on lease {@code leaseId}; free it when it ends. */
  synchronized OwnEntry take(String key, long leaseId, QueueRule rule) {
    if (rule.mode() == Mode.EXCLUSIVE) {
      return new OwnEntry(keys.entry(key, leaseId), null, 0);
    }
    LeaseKey slots = new LeaseKey(leaseId, key);
    Map<Integer, OwnEntry> inUse = taken.computeIfAbsent(slots, k -> new HashMap<>());
    int slot = 0;
    while (inUse.containsKey(slot)) {
      slot++;
    }
    OwnEntry entry = new OwnEntry(keys.entry(key, leaseId, rule, slot), slots, slot);
    inUse.put(slot, entry);
    return entry;
  }

  /**
   * Lease {@code leaseId} is gone, and every entry with it: frees its slots, those of grants the engine now counts as
   * lost without telling the store included.
   */
  synchronized void forget(long leaseId) {
    taken.keySet().removeIf(slots -> slots.leaseId() == leaseId);
  }

  private synchronized void free(OwnEntry entry) {
    Map<Integer, OwnEntry> inUse = taken.get(entry.slots);
    // Only if the slot is still this entry's: a retried release must not free a later acquisition's slot.
    if (inUse != null && inUse.remove(entry.slot, entry) && inUse.isEmpty()) {
      taken.remove(entry.slots);
    }
  }

  /** The entry name of one acquisition, with the slot it holds if it has one. */
  final class OwnEntry {
    private final ByteSequence name;
    private final LeaseKey slots;
    private final int slot;

    private OwnEntry(ByteSequence name, LeaseKey slots, int slot) {
      this.name = name;
      this.slots = slots;
      this.slot = slot;
    }

    ByteSequence name() {
      return name;
    }

    /** The acquisition has ended: its slot may serve the next. Safe to call more than once. */
    void free() {
      if (slots != null) {
        EntryNames.this.free(this);
      }
    }
  }

  private record LeaseKey(long leaseId, String key) {}
}
