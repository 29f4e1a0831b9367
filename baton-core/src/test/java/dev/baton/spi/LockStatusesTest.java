package dev.baton.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Stores make statuses through the SPI; applications cannot make one. */
class LockStatusesTest {
  private static final LockHolder HOLDER = new LockHolder("host", 42, "main", Instant.parse("2026-01-02T03:04:05Z"));

  @Test
  void aFreeAndAHeldStatusSayWhatTheStoreSaid() {
    assertThat(LockStatuses.free("k", 2)).satisfies(free -> {
      assertThat(free.isHeld()).isFalse();
      assertThat(free.waiters()).isEqualTo(2);
      assertThat(free.holders()).isZero();
    });
    LockStatus held = LockStatuses.held("k", "owner:1", 7, Duration.ofSeconds(3), 1, HOLDER);
    assertThat(held.isHeld()).isTrue();
    assertThat(held.ownerId()).contains("owner:1");
    assertThat(held.fencingToken()).hasValue(7);
    assertThat(held.remainingTtl()).contains(Duration.ofSeconds(3));
    assertThat(held.holder()).contains(HOLDER);
    assertThat(held.mode()).contains(LockStatus.Mode.EXCLUSIVE);
  }

  @Test
  void aPeersEntryMayNameNoOwnerAndNoToken() {
    LockStatus peer = LockStatuses.heldByPeer("k", null, OptionalLong.empty(), null, 0, null);
    assertThat(peer.isHeld()).isTrue();
    assertThat(peer.ownerId()).isEmpty();
    assertThat(peer.fencingToken()).isEmpty();
  }

  @Test
  void heldByKeepsTheOldestHolderAndCountsTheOthers() {
    LockStatus oldest = LockStatuses.held("k", "owner:1", 7, Duration.ofSeconds(3), 1, HOLDER);
    LockStatus permits = LockStatuses.heldBy(oldest, LockStatus.Mode.PERMIT, 2, 3);
    assertThat(permits.ownerId()).contains("owner:1");
    assertThat(permits.fencingToken()).hasValue(7);
    assertThat(permits.holders()).isEqualTo(2);
    assertThat(permits.permits()).hasValue(3);
    assertThatThrownBy(() -> LockStatuses.heldBy(oldest, LockStatus.Mode.EXCLUSIVE, 2, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be held by 2");
    assertThatThrownBy(() -> LockStatuses.heldBy(LockStatuses.free("k", 0), LockStatus.Mode.SHARED, 1, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("A lock free");
  }

  @Test
  void lockStatusHasNoPublicConstructorOrFactory() {
    assertThat(LockStatus.class.getConstructors()).isEmpty();
    assertThat(Arrays.stream(LockStatus.class.getMethods())
        .filter(method -> method.getDeclaringClass() == LockStatus.class)
        .filter(method -> Modifier.isStatic(method.getModifiers()) || method.getReturnType() == LockStatus.class)
        .map(Method::getName)).isEmpty();
  }
}
