package dev.baton.cli;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes held locks as a table for people: a header, then a row per lock, columns two spaces apart and as wide as
 * their longest value. A value nobody wrote (an entry of an older Baton, without holder details) is {@code -}; a
 * ZooKeeper lock, which lives as long as its holder's session, has {@code session} for its ttl. Where several hold a
 * lock (readers, permit holders), {@code HOLDERS} says how many and the other columns describe the oldest.
 */
final class ListFormat {
  private static final List<String> HEADER = List.of("KEY", "HOLDERS", "HOST", "PID", "THREAD", "AGE", "TOKEN", "WAITERS",
      "TTL");

  private ListFormat() {}

  /** The table of {@code locks}, ages counted to {@code now}. */
  static String table(List<LockStatus> locks, Instant now) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADER);
    for (LockStatus lock : locks) {
      LockHolder holder = lock.holder().orElse(null);
      rows.add(List.of(lock.key(), StatusFormat.holders(lock),
          holder == null ? "-" : holder.host(),
          holder == null ? "-" : Long.toString(holder.pid()),
          holder == null ? "-" : holder.thread(),
          holder == null ? "-" : StatusFormat.age(holder, now),
          lock.fencingToken().isPresent() ? Long.toString(lock.fencingToken().getAsLong()) : "-",
          Integer.toString(lock.waiters()),
          lock.remainingTtl().map(StatusFormat::seconds).orElse("session")));
    }
    int[] widths = new int[HEADER.size()];
    for (List<String> row : rows) {
      for (int column = 0; column < widths.length; column++) {
        widths[column] = Math.max(widths[column], row.get(column).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int column = 0; column < widths.length; column++) {
        line.append(String.format("%-" + widths[column] + "s", row.get(column))).append("  ");
      }
      out.append(line.toString().stripTrailing()).append(System.lineSeparator());
    }
    return out.toString().stripTrailing();
  }
}
