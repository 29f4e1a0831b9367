package dev.baton.cli;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes a {@link LockStatus} for people or for programs. The JSON's fields keep their names and order from one
 * version to the next; new ones are added before {@code waiters}, which stays last.
 */
final class StatusFormat {
  /** What shows for the owner of an entry that names none (a peer's, or one no lock wrote). */
  private static final String UNKNOWN_OWNER = "unknown: the entry at the name names no holder";

  private StatusFormat() {}

  /**
   * One {@code name value} row per field; {@code now} is the time the holder's age is counted to, and
   * {@code sessions} says whether the store ties a lock without ttl to its holder's session (ZooKeeper) rather than
   * to nothing (a peer's entry without expiry). What the store holds is written {@link Printable#value printable};
   * a token shows where the holder took one, as in {@link #json}.
   */
  static String text(LockStatus status, Instant now, boolean sessions) {
    StringBuilder out = new StringBuilder();
    row(out, "key", Printable.value(status.key()));
    row(out, "state", status.isHeld() ? "held" + (status.holders() > 1 || status.permits().isPresent()
        ? " by " + holders(status) + " (the oldest below)" : "") : "free");
    if (status.isHeld()) {
      row(out, "owner", status.ownerId().map(Printable::value).orElse(UNKNOWN_OWNER));
    }
    status.holder().ifPresent(holder -> {
      row(out, "host", Printable.value(holder.host()));
      row(out, "pid", Long.toString(holder.pid()));
      row(out, "thread", Printable.value(holder.thread()));
      row(out, "since", holder.acquiredAt().truncatedTo(ChronoUnit.MILLIS) + " (" + age(holder, now) + " ago)");
      if (holder.lingers()) {
        row(out, "linger", lingerClause(holder));
      }
    });
    status.fencingToken().ifPresent(token -> row(out, "token", Long.toString(token)));
    if (status.isHeld()) {
      row(out, "ttl left", ttl(status, sessions));
    }
    status.holder().flatMap(LockHolder::multiLock).ifPresent(multi -> row(out, "multi", multiLock(multi)));
    row(out, "waiters", Integer.toString(status.waiters()));
    return out.toString().stripTrailing();
  }

  /**
   * One JSON object: key, held, then owner, fencingToken, remainingTtlMillis and holder where known (of the oldest
   * holder; its lingerMillis where it lingers, its multiLock, keys and set, where it holds the key for a multi-lock),
   * mode and holders where held, permits where permit holders hold it, then waiters.
   */
  static String json(LockStatus status) {
    StringBuilder out = new StringBuilder("{\"key\":").append(Printable.json(status.key()))
        .append(",\"held\":").append(status.isHeld());
    status.ownerId().ifPresent(owner -> out.append(",\"owner\":").append(Printable.json(owner)));
    status.fencingToken().ifPresent(token -> out.append(",\"fencingToken\":").append(token));
    status.remainingTtl().ifPresent(ttl -> out.append(",\"remainingTtlMillis\":").append(ttl.toMillis()));
    status.holder().ifPresent(holder -> out.append(",\"holder\":{\"host\":").append(Printable.json(holder.host()))
        .append(",\"pid\":").append(holder.pid())
        .append(",\"thread\":").append(Printable.json(holder.thread()))
        .append(",\"acquiredAt\":").append(Printable.json(holder.acquiredAt().toString()))
        .append(holder.lingers() ? ",\"lingerMillis\":" + holder.linger().toMillis() : "")
        .append(holder.multiLock().map(multi -> ",\"multiLock\":{\"keys\":" + multi.keys() + ",\"set\":"
            + Printable.json(multi.set()) + '}').orElse("")).append('}'));
    status.mode().ifPresent(mode -> out.append(",\"mode\":").append(Printable.json(mode.name()))
        .append(",\"holders\":").append(status.holders()));
    status.permits().ifPresent(permits -> out.append(",\"permits\":").append(permits));
    return out.append(",\"waiters\":").append(status.waiters()).append('}').toString();
  }

  /**
   * Who holds a held lock and until when, as a clause of a message: {@code held by OWNER (thread T of pid P on H),
   * token N, ttl left 9.8 s}, or {@code held by an unknown holder (...), with no expiry: nothing frees it but
   * whoever wrote it}.
   */
  static String holderClause(LockStatus status, boolean sessions) {
    StringBuilder out = new StringBuilder("held by ")
        .append(status.ownerId().map(Printable::value).orElse("an unknown holder (" + UNKNOWN_OWNER + ")"));
    status.holder().ifPresent(holder -> out.append(" (").append(Printable.value(holder.thread())).append(" of pid ")
        .append(holder.pid()).append(" on ").append(Printable.value(holder.host())).append(')'));
    status.fencingToken().ifPresent(token -> out.append(", token ").append(token));
    if (status.remainingTtl().isPresent() || sessions) {
      return out.append(", ttl left ").append(ttl(status, sessions)).toString();
    }
    return out.append(", with no expiry: nothing frees it but whoever wrote it").toString();
  }

  /**
   * What a lingering holder does: {@code up to 5.0 s after each release, for its own re-acquire; given up at once to
   * a waiter or a request}. The store cannot tell whether it is idle now.
   */
  static String lingerClause(LockHolder holder) {
    return "up to " + seconds(holder.linger()) + " after each release, for its own re-acquire; given up at once to a"
        + " waiter or a request (baton revoke)";
  }

  /** A held lock's ttl left: {@code 9.8 s}, or what decides when it ends where the store gives none. */
  private static String ttl(LockStatus status, boolean sessions) {
    return status.remainingTtl().map(StatusFormat::seconds)
        .orElse(sessions ? "while its holder's session lives" : "none: it never expires");
  }

  /** A JSON array of {@link #json} objects. */
  static String json(List<LockStatus> statuses) {
    return statuses.stream().map(StatusFormat::json).collect(Collectors.joining(",", "[", "]"));
  }

  /**
   * How long the holder has held the lock by {@code now}, as {@code 42s}, {@code 3m05s}, {@code 2h07m} or
   * {@code 3d04h}. The start is the holder's clock, {@code now} ours: a holder whose clock is ahead shows {@code 0s}.
   */
  static String age(LockHolder holder, Instant now) {
    long seconds = Math.max(0, Duration.between(holder.acquiredAt(), now).toSeconds());
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format("%dm%02ds", seconds / 60, seconds % 60);
    }
    if (seconds < 86400) {
      return String.format("%dh%02dm", seconds / 3600, seconds % 3600 / 60);
    }
    return String.format("%dd%02dh", seconds / 86400, seconds % 86400 / 3600);
  }

  /** Who holds a held lock: {@code 1}, {@code 3 readers}, {@code 2 of 4 permits}. */
  static String holders(LockStatus status) {
    return switch (status.mode().orElse(LockStatus.Mode.EXCLUSIVE)) {
      case EXCLUSIVE -> Integer.toString(status.holders());
      case SHARED -> status.holders() + (status.holders() == 1 ? " reader" : " readers");
      case PERMIT -> status.holders() + " of " + status.permits().orElse(0) + " permits";
    };
  }

  /**
   * The multi-lock a key is held for, as {@code one of 3 keys held together, set 5f2a9c01e3b4d7a8}: every key of it
   * shows the same set.
   */
  static String multiLock(LockHolder.MultiLock multi) {
    return "one of " + multi.keys() + " keys held together, set " + Printable.value(multi.set());
  }

  /** A ttl as {@code 9.8 s}. */
  static String seconds(Duration ttl) {
    return String.format("%.1f s", ttl.toMillis() / 1000.0);
  }

  private static void row(StringBuilder out, String name, String value) {
    out.append(String.format("%-9s %s%n", name, value));
  }
}
