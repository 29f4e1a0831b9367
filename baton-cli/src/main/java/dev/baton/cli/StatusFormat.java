package dev.baton.cli;

import dev.baton.LockStatus;
import java.time.Duration;

/** Writes a {@link LockStatus} for people or for programs. */
final class StatusFormat {
  private StatusFormat() {}

  static String text(LockStatus status) {
    StringBuilder out = new StringBuilder();
    row(out, "key", status.key());
    row(out, "state", status.isHeld() ? "held" : "free");
    status.ownerId().ifPresent(owner -> row(out, "owner", owner));
    status.fencingToken().ifPresent(token -> row(out, "token", Long.toString(token)));
    if (status.isHeld()) {
      row(out, "ttl left", status.remainingTtl().map(StatusFormat::seconds).orElse("while its holder's session lives"));
    }
    row(out, "waiters", Integer.toString(status.waiters()));
    return out.toString().stripTrailing();
  }

  static String json(LockStatus status) {
    StringBuilder out = new StringBuilder("{\"key\":").append(quote(status.key()))
        .append(",\"held\":").append(status.isHeld());
    status.ownerId().ifPresent(owner -> out.append(",\"owner\":").append(quote(owner)));
    status.fencingToken().ifPresent(token -> out.append(",\"fencingToken\":").append(token));
    status.remainingTtl().ifPresent(ttl -> out.append(",\"remainingTtlMillis\":").append(ttl.toMillis()));
    return out.append(",\"waiters\":").append(status.waiters()).append('}').toString();
  }

  private static void row(StringBuilder out, String name, String value) {
    out.append(String.format("%-9s %s%n", name, value));
  }

  private static String seconds(Duration ttl) {
    return String.format("%.1f s", ttl.toMillis() / 1000.0);
  }

  private static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
