package dev.baton.cli;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes held locks as a table for people: a header, then a row per lock, columns two spaces apart and as wide as
 * their longest value. A value nobody wrote (an entry of an older Baton, without holder details) is {@code -}; a
 * ZooKeeper lock, which lives as long as its holder's session, has {@code session} for its ttl, and a peer's lock
 * without expiry {@code none}; a holder without a token (a Redisson {@code RLock}) has {@code -} for it. Where several hold a
 * lock (readers, permit holders), {@code HOLDERS} says how many and the other columns describe the oldest. What the
 * store holds is written {@link Printable#value printable}, so that a key holding a line break or an escape sequence
 * keeps to its row.
 * Where a listed key is held for a multi-lock, a last column, {@code MULTI-LOCK}, names the set of keys held
 * together ({@link LockHolder.MultiLock}): the keys one holder holds together show the same set.
 */
final class ListFormat {
  private static final List<String> HEADER = List.of("KEY", "HOLDERS", "HOST", "PID", "THREAD", "AGE", "TOKEN", "WAITERS",
      "TTL");
  /** The last column, there only where a listed key is held for a multi-lock. */
  private static final String MULTI_LOCK = "MULTI-LOCK";

  private ListFormat() {}

  /**
   * The table of {@code locks}, ages counted to {@code now}; a lock without ttl has {@code session} for it where the
   * store ties it to its holder's session ({@code sessions}), else {@code none}.
   */
  static String table(List<LockStatus> locks, Instant now, boolean sessions) {
    boolean multiLocks = locks.stream().anyMatch(lock -> lock.holder().flatMap(LockHolder::multiLock).isPresent());
    List<String> header = new ArrayList<>(HEADER);
    if (multiLocks) {
      header.add(MULTI_LOCK);
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(header);
    for (LockStatus lock : locks) {
      LockHolder holder = lock.holder().orElse(null);
      List<String> row = new ArrayList<>(List.of(Printable.value(lock.key()),
          StatusFormat.holders(lock) + (holder != null && holder.lingers() ? " (lingers)" : ""),
          holder == null ? "-" : Printable.value(holder.host()),
          holder == null ? "-" : Long.toString(holder.pid()),
          holder == null ? "-" : Printable.value(holder.thread()),
          holder == null ? "-" : StatusFormat.age(holder, now),
          lock.fencingToken().isPresent() ? Long.toString(lock.fencingToken().getAsLong()) : "-",
          Integer.toString(lock.waiters()),
          lock.remainingTtl().map(StatusFormat::seconds).orElse(sessions ? "session" : "none")));
      if (multiLocks) {
        row.add(holder == null ? "-" : holder.multiLock()
            .map(multi -> Printable.value(multi.set()) + " (" + multi.keys() + " keys)").orElse("-"));
      }
      rows.add(row);
    }
    int[] widths = new int[header.size()];
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
