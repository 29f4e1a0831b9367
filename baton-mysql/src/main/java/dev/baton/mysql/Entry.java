package dev.baton.mysql;

import dev.baton.LockStatus.Mode;
import dev.baton.spi.QueueRule;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One live row of the lock table: a holder or a waiter of a key.
 *
 * @param id the entry's number from the counter: its place in the key's queue and its fencing token
 * @param ownerId the owner id of the acquisition that wrote it
 * @param rule the entry's mode and capacity
 * @param holder the holder record written with it
 * @param remainingMillis how long the entry lives without a renewal, by the database's clock
 * @param contended whether a waiter marked it as waited for
 */
record Entry(long id, String ownerId, QueueRule rule, String holder, long remainingMillis, boolean contended) {

  /** The live entries of a key in queue order, as {@code entries.sql} reads them. */
  static List<Entry> readAll(ResultSet rows) throws SQLException {
    List<Entry> entries = new ArrayList<>();
    while (rows.next()) {
      entries.add(new Entry(rows.getLong("entry_id"), rows.getString("owner_id"),
          rule(rows.getString("mode"), rows.getInt("capacity")), rows.getString("holder"),
          rows.getLong("remaining_ms"), rows.getBoolean("contended")));
    }
    return entries;
  }

  /** The modes of {@code entries}, in their order. */
  static List<Mode> modes(List<Entry> entries) {
    return entries.stream().map(entry -> entry.rule().mode()).toList();
  }

  private static QueueRule rule(String mode, int capacity) {
    return switch (Mode.valueOf(mode)) {
      case EXCLUSIVE -> QueueRule.EXCLUSIVE;
      case SHARED -> QueueRule.SHARED;
      case PERMIT -> QueueRule.permits(capacity);
    };
  }
}
