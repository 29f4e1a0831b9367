package dev.baton.zookeeper;

import static dev.baton.zookeeper.LockQueueTest.queueOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.QueueRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a waiter watches, without a server. */
class WaitTargetsTest {
  private static final QueueRule TWO = QueueRule.permits(2);

  @Test
  void aLockWaiterWatchesItsPredecessorAndANonFairOneTheHead() {
    LockQueue queue = queueOf(QueueRule.EXCLUSIVE, QueueRule.EXCLUSIVE, QueueRule.EXCLUSIVE);

    assertThat(WaitTargets.fair(queue, 2, QueueRule.EXCLUSIVE)).isEqualTo(new WaitTargets(List.of(1), false));
    assertThat(WaitTargets.nonFair(queue, 2, QueueRule.EXCLUSIVE).indexes()).containsExactly(0);
  }

  @Test
  void aReaderWatchesTheNearestWriterAndAWriterTheNearestEntry() {
    LockQueue queue = queueOf(QueueRule.SHARED, QueueRule.EXCLUSIVE, QueueRule.SHARED, QueueRule.SHARED,
        QueueRule.EXCLUSIVE);

    assertThat(WaitTargets.fair(queue, 3, QueueRule.SHARED).indexes()).containsExactly(1);
    assertThat(WaitTargets.fair(queue, 4, QueueRule.EXCLUSIVE).indexes()).containsExactly(3);
    assertThat(WaitTargets.nonFair(queue, 3, QueueRule.SHARED).indexes()).containsExactly(1);
  }

  /** Permits come back in any order: the first waiter watches every one ahead, the others the waiter before them. */
  @Test
  void theFirstWaiterForAPermitWatchesEveryHolderAndTheNextOnesTheirPredecessor() {
    LockQueue queue = queueOf(TWO, TWO, TWO, TWO, TWO);

    assertThat(WaitTargets.fair(queue, 2, TWO)).isEqualTo(new WaitTargets(List.of(0, 1), false));
    assertThat(WaitTargets.fair(queue, 3, TWO)).isEqualTo(new WaitTargets(List.of(2), true));
    assertThat(WaitTargets.fair(queue, 4, TWO)).isEqualTo(new WaitTargets(List.of(3), true));
    assertThat(WaitTargets.nonFair(queue, 4, TWO).indexes()).as("non-fair: the holders").containsExactly(0, 1);
  }

  @Test
  void aPermitWaiterBehindAnExclusiveEntryWatchesItWhateverThePermitsBetween() {
    QueueRule three = QueueRule.permits(3);
    LockQueue queue = queueOf(three, QueueRule.EXCLUSIVE, three, three, three);

    assertThat(WaitTargets.fair(queue, 2, three)).as("the exclusive entry holds the permits back")
        .isEqualTo(new WaitTargets(List.of(1), false));
    assertThat(WaitTargets.fair(queue, 4, three)).as("a later permit waiter chains on the one before it")
        .isEqualTo(new WaitTargets(List.of(3), true));
  }

  @Test
  void anEntryWritesItsNodeWhenGrantedOnlyIfAPermitOfItsSemaphoreIsRightBehind() {
    assertThat(WaitTargets.mayBeChainedOn(queueOf(TWO, TWO), 0)).isTrue();
    assertThat(WaitTargets.mayBeChainedOn(queueOf(TWO, TWO), 1)).as("nobody behind").isFalse();
    assertThat(WaitTargets.mayBeChainedOn(queueOf(TWO, QueueRule.permits(3)), 0)).isFalse();
    assertThat(WaitTargets.mayBeChainedOn(queueOf(QueueRule.EXCLUSIVE, QueueRule.EXCLUSIVE), 0)).isFalse();
    assertThat(WaitTargets.mayBeChainedOn(queueOf(QueueRule.permits(1), QueueRule.permits(1)), 0))
        .as("one permit is waited for as a lock is").isFalse();
  }
}
