package dev.baton.jdbc;

import dev.baton.LockStatus;
import dev.baton.LockStatus.Mode;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.LockStatuses;
import dev.baton.spi.QueueRule;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One live row of a lock table: a holder or a waiter of a key.
 *
 * @param id the entry's number (from PostgreSQL's sequence, MySQL's counter row): its place in the key's queue and
 *     its fencing token
 * @param ownerId the owner id of the acquisition that wrote it
 * @param rule the entry's mode and capacity
 * @param holder the holder record written with it
 * @param remainingMillis how long the entry lives without a renewal, by the database's clock
 * @param contended whether a waiter marked it as waited for
 */
public record Entry(long id, String ownerId, QueueRule rule, String holder, long remainingMillis, boolean contended) {

  /**
   * The live entries of a key in queue order, from rows with the columns {@code entry_id}, {@code owner_id},
   * {@code mode}, {@code capacity}, {@code holder}, {@code remaining_ms} and {@code contended}, as each store's
   * {@code entries.sql} reads them.
   */
  public static List<Entry> readAll(ResultSet rows) throws SQLException {
    List<Entry> entries = new ArrayList<>();
    while (rows.next()) {
      entries.add(new Entry(rows.getLong("entry_id"), rows.getString("owner_id"),
          rule(rows.getString("mode"), rows.getInt("capacity")), rows.getString("holder"),
          rows.getLong("remaining_ms"), rows.getBoolean("contended")));
    }
    return entries;
  }

  /** The modes of {@code entries}, in their order. */
  public static List<Mode> modes(List<Entry> entries) {
    return entries.stream().map(entry -> entry.rule().mode()).toList();
  }

  /** The entries of {@code entries}, in queue order, that hold by their rules: those a request to release asks. */
  public static List<Entry> holders(List<Entry> entries) {
    List<Entry> holders = new ArrayList<>();
    List<Mode> ahead = new ArrayList<>();
    for (Entry entry : entries) {
      if (entry.rule().awaited(ahead) == QueueRule.HOLDS) {
        holders.add(entry);
      }
      ahead.add(entry.rule().mode());
    }
    return holders;
  }

  /** The status of {@code key} whose live entries, in queue order, are {@code entries}. */
  public static LockStatus status(String key, List<Entry> entries) {
    if (entries.isEmpty()) {
      return LockStatuses.free(key, 0);
    }
    List<QueueRule> rules = entries.stream().map(Entry::rule).toList();
    Entry oldest = entries.get(0);
    LockStatus held = HolderRecord.read(oldest.holder()).held(key, oldest.id(),
        Duration.ofMillis(Math.max(0, oldest.remainingMillis())), QueueRule.waiting(rules));
    return QueueRule.describe(held, rules);
  }

  private static QueueRule rule(String mode, int capacity) {
    return switch (Mode.valueOf(mode)) {
      case EXCLUSIVE -> QueueRule.EXCLUSIVE;
      case SHARED -> QueueRule.SHARED;
      case PERMIT -> QueueRule.permits(capacity);
    };
  }
}
