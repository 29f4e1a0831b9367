package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.spi.KeyOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@code status} and {@code list} read from the store: the holder, its token, and the waiters. Part of the {@link LockClientContract}: it runs as a nested class of the backend's test.
 */
abstract class ContractStatusAndList extends ContractGroup {
  ContractStatusAndList(LockClientContract contract) {
    super(contract);
  }

  @Test
  @Timeout(30)
  void statusShowsTheHolderAndItsToken() throws Exception {
    LockClient client = newClient();
    assertThat(client.status(key).isHeld()).isFalse();
    Instant before = Instant.now().minusSeconds(1);
    try (Lease lease = client.lock(key).acquire(LONG_WAIT)) {
      LockStatus status = newClient().status(key);
      assertThat(status.isHeld()).isTrue();
      assertThat(status.ownerId()).contains(lease.ownerId());
      assertThat(status.fencingToken()).hasValue(lease.fencingToken());
      status.remainingTtl().ifPresent(ttl -> assertThat(ttl).isPositive());
      assertThat(status.holder()).as("who holds it").hasValueSatisfying(holder -> {
        assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(holder.thread()).isEqualTo(Thread.currentThread().getName());
        assertThat(holder.host()).isNotBlank();
        assertThat(holder.acquiredAt()).isBetween(before, Instant.now().plusSeconds(1));
      });
    }
    assertThat(client.status(key).isHeld()).isFalse();
  }

  /**
   * A few locks under a prefix, nested ones among them, the prefix's own parent key held outside it and a waiter
   * of another client on one of them: the list is exactly the held keys under the prefix, in key order, each
   * with its owner, token, holder and waiters; the limit cuts it at the first keys.
   */
  @Test
  @Timeout(30)
  void listShowsTheLocksHeldUnderAPrefixInKeyOrder() throws Exception {
    LockClient client = newClient();
    LockClient observer = newClient();
    String prefix = key + "/";
    List<String> keys = List.of(prefix + "a", prefix + "b", prefix + "b/c", prefix + "bb");
    Instant before = Instant.now().minusSeconds(1);
    List<Lease> leases = new ArrayList<>();
    BackgroundCall<Lease> waiter;
    try (Lease outside = client.lock(key).acquire(LONG_WAIT)) {
      for (String held : keys) {
        leases.add(client.lock(held).acquire(LONG_WAIT));
      }
      // A fair waiter keeps its place at every store, so that each counts it.
      LockOptions fairWaiting = baseOptions().toBuilder().fair(true).waitTime(LONG_WAIT).build();
      LockClient other = newClient();
      waiter = BackgroundCall.start("waiter", () -> other.lock(prefix + "b", fairWaiting).acquire());
      waiter.awaitBlocked();
      await("the waiter on " + prefix + "b seen at the store").atMost(PROMPTLY)
          .until(() -> observer.list(prefix, 10).stream().anyMatch(s -> s.key().equals(prefix + "b") && s.waiters() == 1));

      List<LockStatus> listed = observer.list(prefix, 10);
      assertThat(listed).extracting(LockStatus::key).containsExactlyElementsOf(keys);
      for (int i = 0; i < keys.size(); i++) {
        LockStatus status = listed.get(i);
        Lease lease = leases.get(i);
        assertThat(status.isHeld()).as("%s held", status.key()).isTrue();
        assertThat(status.ownerId()).as("owner of %s", status.key()).contains(lease.ownerId());
        assertThat(status.fencingToken()).as("token of %s", status.key()).hasValue(lease.fencingToken());
        assertThat(status.waiters()).as("waiters of %s", status.key()).isEqualTo(status.key().equals(prefix + "b") ? 1 : 0);
        status.remainingTtl().ifPresent(ttl -> assertThat(ttl).as("ttl left of %s", status.key()).isPositive());
        assertThat(status.holder()).as("who holds %s", status.key()).hasValueSatisfying(holder -> {
          assertThat(holder.pid()).isEqualTo(ProcessHandle.current().pid());
          assertThat(holder.thread()).isEqualTo(Thread.currentThread().getName());
          assertThat(holder.host()).isNotBlank();
          assertThat(holder.acquiredAt()).isBetween(before, Instant.now().plusSeconds(1));
        });
      }
      assertThat(observer.list(prefix, 2)).as("the first two").extracting(LockStatus::key)
          .containsExactly(prefix + "a", prefix + "b");
      assertThat(observer.list(prefix + "b", 10)).as("a prefix ending inside a path segment").extracting(LockStatus::key)
          .containsExactly(prefix + "b", prefix + "b/c", prefix + "bb");
      assertThat(observer.list(prefix + "c", 10)).as("nothing under the prefix").isEmpty();
      assertThat(observer.list("", LockClient.MAX_LIST_LIMIT)).as("every lock").extracting(LockStatus::key)
          .containsSubsequence(key, prefix + "a", prefix + "b", prefix + "b/c", prefix + "bb")
          .isSortedAccordingTo(KeyOrder.BY_CODE_POINT);
    } finally {
      closeAll(leases);
    }
    waiter.result(LONG_WAIT).close();
    // The observer is another client: on a ZooKeeper ensemble it may read from a follower a moment behind the
    // releases (ZooKeeper orders each session's view, not views across sessions).
    await("no lock under " + prefix + " after the releases").atMost(PROMPTLY)
        .untilAsserted(() -> assertThat(observer.list(prefix, 10)).as("after the releases").isEmpty());
  }

  /** Glob and regular-expression characters in a prefix are only characters; bad prefixes and limits are named. */
  @Test
  @Timeout(30)
  void listTakesThePrefixLiterallyAndRejectsBadPrefixesAndLimits() throws Exception {
    LockClient client = newClient();
    String prefix = key + "/";
    List<Lease> leases = new ArrayList<>();
    try {
      for (String held : List.of("g*", "g\\x", "gx", "q[ab]", "qa")) {
        leases.add(client.lock(prefix + held).acquire(LONG_WAIT));
      }
      assertThat(client.list(prefix + "g*", 10)).extracting(LockStatus::key).containsExactly(prefix + "g*");
      assertThat(client.list(prefix + "g?", 10)).isEmpty();
      assertThat(client.list(prefix + "g\\", 10)).extracting(LockStatus::key).containsExactly(prefix + "g\\x");
      assertThat(client.list(prefix + "q[", 10)).extracting(LockStatus::key).containsExactly(prefix + "q[ab]");
      assertThat(client.list(prefix + ".*", 10)).isEmpty();
    } finally {
      closeAll(leases);
    }
    assertThatThrownBy(() -> client.list(null, 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null");
    assertThatThrownBy(() -> client.list("orders\n", 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("orders\\u000a");
    assertThatThrownBy(() -> client.list("coll\uD800", 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("coll", "unpaired surrogate");
    assertThatThrownBy(() -> client.list("k".repeat(300), 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("300");
    for (int limit : new int[] {0, -1, LockClient.MAX_LIST_LIMIT + 1}) {
      assertThatThrownBy(() -> client.list(prefix, limit)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("was " + limit);
    }
  }
}
