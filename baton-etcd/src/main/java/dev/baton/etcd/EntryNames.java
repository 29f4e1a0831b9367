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
 * gone). A client that takes a lock over and over thus writes the same few names, not one per acquisition: etcd keeps
 * every deleted name in its index until compaction, and every read of the queue walks them.
 *
 * <p>Since no two acquisitions of a client that are under way use one name at once, an entry found under our name
 * that is not ours was left by one that has ended, and is ours to remove.
 *
 * <p>An exclusive entry is released by a plain delete sent once ({@link EntryDeletes}): answered, it was applied once
 * and nothing of it is left on the way, so the name may serve the next acquisition. Unanswered, it may still be
 * applied later, and would then delete that acquisition's entry: the name is {@linkplain OwnEntry#retire() retired},
 * and the lease's later acquisitions of the key take the next one ({@link EtcdKeys#entry(String, long, int)}). Only
 * the latest acquisition to take an exclusive name may delete by it: a release that comes after the next acquisition
 * took the name (the background release of an entry found lost, once the key's turn went on) deletes by create
 * revision, so it can never remove that acquisition's entry. And a release that decided to delete by name claims it
 * ({@link OwnEntry#claimDeleteByName()}): an acquisition that comes while that delete is not yet answered takes the
 * next name, as after an unanswered one.
 */
final class EntryNames {
  /** The slot of an exclusive entry, which takes none. */
  private static final int NO_SLOT = -1;

  private final EtcdKeys keys;
  /** The slots taken, by lease and key. */
  private final Map<LeaseKey, Map<Integer, OwnEntry>> taken = new HashMap<>();
  /** How many exclusive names were retired, by lease and key; none for most. */
  private final Map<LeaseKey, Integer> retired = new HashMap<>();
  /** The latest acquisition to take each exclusive name, until it ends. */
  private final Map<LeaseKey, OwnEntry> latest = new HashMap<>();

  EntryNames(EtcdKeys keys) {
    this.keys = keys;
  }

  /** A name for an acquisition under {@code rule} of {@code key} on lease {@code leaseId}; free it when it ends. */
  synchronized OwnEntry take(String key, long leaseId, QueueRule rule) {
    LeaseKey slots = new LeaseKey(leaseId, key);
    if (rule.mode() == Mode.EXCLUSIVE) {
      OwnEntry previous = latest.get(slots);
      if (previous != null && previous.deleting) {
        // A delete by that name is decided, and may be on its way still: it would remove what we put there.
        retire(previous);
      }
      int generation = retired.getOrDefault(slots, 0);
      OwnEntry entry = new OwnEntry(keys.entry(key, leaseId, generation), slots, NO_SLOT, generation);
      latest.put(slots, entry);
      return entry;
    }
    Map<Integer, OwnEntry> inUse = taken.computeIfAbsent(slots, k -> new HashMap<>());
    int slot = 0;
    while (inUse.containsKey(slot)) {
      slot++;
    }
    OwnEntry entry = new OwnEntry(keys.entry(key, leaseId, rule, slot), slots, slot, 0);
    inUse.put(slot, entry);
    return entry;
  }

  /**
   * Lease {@code leaseId} is gone, and every entry with it: frees its slots, those of grants the engine now counts as
   * lost without telling the store included, and its retired names, which the next lease's names cannot meet.
   */
  synchronized void forget(long leaseId) {
    taken.keySet().removeIf(slots -> slots.leaseId() == leaseId);
    retired.keySet().removeIf(names -> names.leaseId() == leaseId);
    latest.keySet().removeIf(names -> names.leaseId() == leaseId);
  }

  private synchronized boolean claimDeleteByName(OwnEntry entry) {
    if (entry.slot != NO_SLOT || keys.etcdCompatible() || latest.get(entry.slots) != entry) {
      return false;
    }
    entry.deleting = true;
    return true;
  }

  private synchronized void free(OwnEntry entry) {
    if (entry.slot == NO_SLOT) {
      latest.remove(entry.slots, entry);
      return;
    }
    Map<Integer, OwnEntry> inUse = taken.get(entry.slots);
    // Only if the slot is still this entry's: a retried release must not free a later acquisition's slot.
    if (inUse != null && inUse.remove(entry.slot, entry) && inUse.isEmpty()) {
      taken.remove(entry.slots);
    }
  }

  private synchronized void retire(OwnEntry entry) {
    retired.merge(entry.slots, entry.generation + 1, Math::max);
  }

  /** The entry name of one acquisition, with the slot it holds if it has one. */
  final class OwnEntry {
    private final ByteSequence name;
    private final LeaseKey slots;
    private final int slot;
    private final int generation;
    /** A release decided to delete this entry by name ({@link #claimDeleteByName}); under the names' monitor. */
    private boolean deleting;

    private OwnEntry(ByteSequence name, LeaseKey slots, int slot, int generation) {
      this.name = name;
      this.slots = slots;
      this.slot = slot;
      this.generation = generation;
    }

    ByteSequence name() {
      return name;
    }

    /**
     * Whether a release may delete this entry by name alone, with a delete sent once: an exclusive entry, whose name
     * can be retired, while no later acquisition took the name (compatible with etcd's own lock, no: its name must
     * stay {@code K/LEASE}). True claims the name for that delete: until this acquisition is freed, the key's later
     * acquisitions on the lease take the next name, which the delete cannot meet however late it arrives.
     */
    boolean claimDeleteByName() {
      return EntryNames.this.claimDeleteByName(this);
    }

    /** A plain delete of this name went unanswered and may still be applied: later acquisitions take another name. */
    void retire() {
      EntryNames.this.retire(this);
    }

    /** The acquisition has ended: its name or slot may serve the next. Safe to call more than once. */
    void free() {
      EntryNames.this.free(this);
    }
  }

  private record LeaseKey(long leaseId, String key) {}
}
