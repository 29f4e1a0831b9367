package dev.baton.spi;

import static dev.baton.LockStatus.Mode.EXCLUSIVE;
import static dev.baton.LockStatus.Mode.PERMIT;
import static dev.baton.LockStatus.Mode.SHARED;
import static dev.baton.spi.QueueRule.HOLDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueueRuleTest {

  @Test
  void aMutexHoldsWithNothingAheadAndOtherwiseWaitsForItsPredecessor() {
    QueueRule mutex = QueueRule.EXCLUSIVE;
    assertThat(mutex.awaited(List.of())).isEqualTo(HOLDS);
    assertThat(mutex.awaited(List.of(EXCLUSIVE))).isZero();
    assertThat(mutex.awaited(List.of(EXCLUSIVE, EXCLUSIVE, EXCLUSIVE))).isEqualTo(2);
    assertThat(mutex.awaited(List.of(SHARED, SHARED))).as("a writer behind readers").isEqualTo(1);
    assertThat(mutex.firstConflicting(List.of(EXCLUSIVE, EXCLUSIVE))).as("a non-fair waiter watches the head").isZero();
    assertThat(mutex.firstConflicting(List.of())).isEqualTo(HOLDS);
  }

  @Test
  void aReadLockHoldsUnlessAWriterIsAheadAndWaitsForTheNearestWriter() {
    QueueRule read = QueueRule.SHARED;
    assertThat(read.awaited(List.of())).isEqualTo(HOLDS);
    assertThat(read.awaited(List.of(SHARED, SHARED, SHARED))).as("readers only").isEqualTo(HOLDS);
    assertThat(read.awaited(List.of(SHARED, EXCLUSIVE, SHARED))).as("a writer waits ahead: no barging past it")
        .isEqualTo(1);
    assertThat(read.awaited(List.of(EXCLUSIVE, SHARED, EXCLUSIVE, SHARED))).isEqualTo(2);
    assertThat(read.firstConflicting(List.of(SHARED, EXCLUSIVE, EXCLUSIVE))).isEqualTo(1);
    assertThat(read.firstConflicting(List.of(SHARED))).isEqualTo(HOLDS);
  }

  @Test
  void aPermitHoldsWithFewerThanNAheadAndWaitsForTheNthNearest() {
    QueueRule three = QueueRule.permits(3);
    assertThat(three.awaited(List.of())).isEqualTo(HOLDS);
    assertThat(three.awaited(List.of(PERMIT, PERMIT))).isEqualTo(HOLDS);
    assertThat(three.awaited(List.of(PERMIT, PERMIT, PERMIT))).as("the oldest of three must go").isZero();
    assertThat(three.awaited(List.of(PERMIT, PERMIT, PERMIT, PERMIT, PERMIT))).isEqualTo(2);
    assertThat(three.awaited(List.of(EXCLUSIVE))).as("an exclusive holder, whatever the capacity").isZero();
    assertThat(three.awaited(List.of(EXCLUSIVE, PERMIT))).as("an exclusive entry farther back").isZero();
    assertThat(QueueRule.permits(1)).as("one permit is a mutex's rule but a permit's entry")
        .isNotEqualTo(QueueRule.EXCLUSIVE).extracting(QueueRule::capacity).isEqualTo(1);
  }

  @Test
  void modesConflictAsReadersAndWritersDo() {
    assertThat(QueueRule.SHARED.conflictsWith(SHARED)).isFalse();
    assertThat(QueueRule.SHARED.conflictsWith(EXCLUSIVE)).isTrue();
    assertThat(QueueRule.EXCLUSIVE.conflictsWith(SHARED)).isTrue();
    assertThat(QueueRule.EXCLUSIVE.conflictsWith(EXCLUSIVE)).isTrue();
    assertThat(QueueRule.permits(2).conflictsWith(PERMIT)).isTrue();
    assertThat(QueueRule.SHARED.conflictsWithAll()).isFalse();
    assertThat(QueueRule.EXCLUSIVE.conflictsWithAll()).isTrue();
  }

  @Test
  void aSemaphoreNeedsAPermit() {
    assertThatThrownBy(() -> QueueRule.permits(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
  }
}
