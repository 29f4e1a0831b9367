package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import dev.baton.spi.LockStatuses;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The text, table and JSON of statuses: what the store holds is printable in every field, a token shows only where
 * the holder took one, and a lock nothing frees says so.
 */
class StatusFormatTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final LockHolder HOSTILE_HOLDER = new LockHolder("evil\u001b]0;pwned\u0007", 42,
      "t\nwaiters   0", NOW.minusSeconds(5));

  @Test
  void aPlainRedissonHolderHasNoTokenInTextTableOrJson() {
    LockStatus status = LockStatuses.heldByPeer("nightly", "0b4e:1", OptionalLong.empty(), Duration.ofSeconds(9), 0,
        null);
    assertThat(StatusFormat.json(status)).doesNotContain("fencingToken");
    assertThat(StatusFormat.text(status, NOW, false)).doesNotContain("token").contains("owner     0b4e:1");
    assertThat(ListFormat.table(List.of(status), NOW, false).lines().skip(1))
        .singleElement().asString().matches("nightly +1 +- +- +- +- +- +0 +9\\.0 s");
  }

  @Test
  void anEntryNothingFreesSaysItHasNoOwnerAndNoExpiry() {
    LockStatus status = LockStatuses.heldByPeer("settings", null, OptionalLong.empty(), null, 0, null);
    assertThat(StatusFormat.text(status, NOW, false)).contains("state     held",
        "owner     unknown: the entry at the name names no holder", "ttl left  none: it never expires");
    assertThat(StatusFormat.json(status)).isEqualTo("{\"key\":\"settings\",\"held\":true,\"mode\":\"EXCLUSIVE\","
        + "\"holders\":1,\"waiters\":0}");
    assertThat(StatusFormat.holderClause(status, false)).isEqualTo("held by an unknown holder (unknown: the entry at"
        + " the name names no holder), with no expiry: nothing frees it but whoever wrote it");
    assertThat(ListFormat.table(List.of(status), NOW, false)).endsWith("none");
    assertThat(ListFormat.table(List.of(status), NOW, true)).endsWith("session");
  }

  @Test
  void aLingeringHolderShowsItsLingerBeforeTheWaiters() {
    LockHolder holder = new LockHolder("h", 42, "main", NOW.minusSeconds(5)).withLinger(Duration.ofSeconds(5));
    LockStatus status = LockStatuses.held("batch", "c1:1", 7, Duration.ofSeconds(3), 0, holder);
    assertThat(StatusFormat.text(status, NOW, false).lines()).contains("linger    up to 5.0 s after each release, for"
        + " its own re-acquire; given up at once to a waiter or a request (baton revoke)").last().asString()
        .startsWith("waiters");
    assertThat(StatusFormat.json(status)).contains(",\"lingerMillis\":5000}").endsWith(",\"waiters\":0}");
    assertThat(ListFormat.table(List.of(status), NOW, false)).contains("1 (lingers)");
    LockStatus plain = LockStatuses.held("batch", "c1:1", 7, Duration.ofSeconds(3), 0, HOSTILE_HOLDER);
    assertThat(StatusFormat.text(plain, NOW, false)).doesNotContain("linger");
  }

  @Test
  void aKeyHeldForAMultiLockNamesItsSetInTextTableAndJson() {
    LockHolder.MultiLock multi = LockHolder.MultiLock.of(List.of("accounts/1", "accounts/2"));
    LockHolder holder = new LockHolder("app-1", 4242, "main", NOW.minusSeconds(5)).withMultiLock(multi);
    LockStatus first = LockStatuses.held("accounts/1", "c1:7", 11, Duration.ofSeconds(9), 0, holder);
    LockStatus second = LockStatuses.held("accounts/2", "c1:8", 12, Duration.ofSeconds(9), 0, holder);
    LockStatus alone = LockStatuses.held("jobs/nightly", "c1:9", 13, Duration.ofSeconds(9), 0,
        new LockHolder("app-1", 4242, "main", NOW.minusSeconds(5)));

    assertThat(StatusFormat.text(first, NOW, false)).contains("multi     one of 2 keys held together, set "
        + multi.set() + System.lineSeparator() + "waiters   0");
    assertThat(StatusFormat.text(alone, NOW, false)).doesNotContain("multi");
    assertThat(StatusFormat.json(first)).contains("\"acquiredAt\":\"" + holder.acquiredAt() + "\",\"multiLock\":{"
        + "\"keys\":2,\"set\":\"" + multi.set() + "\"}}").endsWith("\"waiters\":0}");
    List<String> table = ListFormat.table(List.of(first, second, alone), NOW, false).lines().toList();
    assertThat(table.get(0)).endsWith("TTL    MULTI-LOCK");
    assertThat(table.subList(1, 3)).allSatisfy(row -> assertThat(row).endsWith(multi.set() + " (2 keys)"));
    assertThat(table.get(3)).endsWith("9.0 s  -");
    assertThat(ListFormat.table(List.of(alone), NOW, false).lines().findFirst()).hasValueSatisfying(
        header -> assertThat(header).endsWith("TTL"));
    assertThat(multi.set()).matches("[0-9a-f]{16}");
  }

  @Test
  void whatTheStoreHoldsCannotBreakALineOrReachTheTerminal() {
    LockStatus status = LockStatuses.held("k\n\u001b[2Jx", "owner\r1", 7, Duration.ofSeconds(3), 0, HOSTILE_HOLDER);
    for (String text : List.of(StatusFormat.text(status, NOW, false), ListFormat.table(List.of(status), NOW, false),
        StatusFormat.holderClause(status, false), StatusFormat.json(status))) {
      assertThat(text).doesNotContain("\u001b", "\u0007", "\r").contains("\\u001b");
    }
    assertThat(StatusFormat.text(status, NOW, false).lines()).hasSize(10).contains("key       k\\n\\u001b[2Jx",
        "thread    t\\nwaiters   0");
    assertThat(ListFormat.table(List.of(status), NOW, false).lines()).hasSize(2);
    assertThat(StatusFormat.json(status)).doesNotContain("\n").contains("\"key\":\"k\\u000a\\u001b[2Jx\"");
  }
}
