package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockHolder.MultiLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LocalQueueTest {
  /** The system's time; the queue schedules nothing, so its scheduler thread never starts. */
  private static final EngineTime TIME = EngineTime.system("local-queue-test");

  private final LocalQueue queue = new LocalQueue(1);

  @Test
  void servesWaitersInOrderOfArrival() throws Exception {
    assertThat(queue.enter(Deadline.after(TIME, Optional.empty()), true, null)).isNotNull();
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<Thread> waiters = startWaiters(queue, 3, order, true);
    queue.leave();
    for (Thread t : waiters) {
      t.join(5_000);
    }
    assertThat(order).containsExactly(0, 1, 2);
  }

  @Test
  void aQueueOfSeveralTurnsGivesThemInOrderOfArrivalAndNoMore() throws Exception {
    LocalQueue permits = new LocalQueue(2);
    assertThat(permits.enter(Deadline.after(TIME, Optional.of(Duration.ZERO)), true, null)).isNotNull();
    assertThat(permits.enter(Deadline.after(TIME, Optional.of(Duration.ZERO)), true, null)).isNotNull();
    assertThat(permits.enter(Deadline.after(TIME, Optional.of(Duration.ZERO)), true, null)).as("a third turn of two").isNull();
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<Thread> waiters = startWaiters(permits, 3, order, false);
    for (int turn = 1; turn <= 3; turn++) {
      permits.leave();
      int taken = turn;
      await().until(() -> order.size() == taken);
    }
    for (Thread t : waiters) {
      t.join(5_000);
    }
    assertThat(order).containsExactly(0, 1, 2);
  }

  @Test
  void aWaiterGivesUpAtItsDeadlineAndTheNextOneStillGetsTheTurn() throws Exception {
    queue.enter(Deadline.after(TIME, Optional.empty()), true, null);
    assertThat(queue.enter(Deadline.after(TIME, Optional.of(Duration.ofMillis(50))), true, null)).isNull();
    queue.leave();
    assertThat(queue.enter(Deadline.after(TIME, Optional.of(Duration.ZERO)), true, null)).isNotNull();
  }

  @Test
  void interruptEndsAnInterruptibleWaitOnly() throws Exception {
    queue.enter(Deadline.after(TIME, Optional.empty()), true, null);
    CountDownLatch done = new CountDownLatch(1);
    Thread interruptible = new Thread(() -> {
      try {
        queue.enter(Deadline.after(TIME, Optional.empty()), true, null);
      } catch (InterruptedException expected) {
        done.countDown();
      }
    });
    interruptible.start();
    await().until(() -> interruptible.getState() == Thread.State.WAITING || interruptible.getState() == Thread.State.TIMED_WAITING);
    interruptible.interrupt();
    assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();

    boolean[] keptInterrupt = new boolean[1];
    Thread stubborn = new Thread(() -> {
      try {
        queue.enter(Deadline.after(TIME, Optional.empty()), false, null);
        keptInterrupt[0] = Thread.currentThread().isInterrupted();
        queue.leave();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    stubborn.start();
    await().until(() -> stubborn.getState() == Thread.State.WAITING || stubborn.getState() == Thread.State.TIMED_WAITING);
    stubborn.interrupt();
    queue.leave();
    stubborn.join(5_000);
    assertThat(keptInterrupt[0]).isTrue();
  }

  @Test
  void closingFailsWaitersAndLaterCallers() throws Exception {
    queue.enter(Deadline.after(TIME, Optional.empty()), true, null);
    Throwable[] failure = new Throwable[1];
    Thread waiter = new Thread(() -> {
      try {
        queue.enter(Deadline.after(TIME, Optional.empty()), true, null);
      } catch (Throwable t) {
        failure[0] = t;
      }
    });
    waiter.start();
    await().until(() -> waiter.getState() == Thread.State.WAITING || waiter.getState() == Thread.State.TIMED_WAITING);
    queue.close("client closed");
    waiter.join(5_000);
    assertThat(failure[0]).isInstanceOf(IllegalStateException.class).hasMessage("client closed");
    assertThatThrownBy(() -> queue.enter(Deadline.after(TIME, Optional.empty()), true, null)).hasMessage("client closed");
  }

  @Test
  void registrationsQueueWithThreadsInOrderOfArrival() throws Exception {
    assertThat(queue.register(new Recorded(), null)).as("a free turn, taken at once").isNotNull();
    List<Integer> order = new CopyOnWriteArrayList<>();
    Recorded first = new Recorded();
    assertThat(queue.register(first, null)).isNull();
    List<Thread> thread = startWaiters(queue, 1, order, false);
    Recorded last = new Recorded();
    assertThat(queue.register(last, null)).isNull();

    queue.leave();
    assertThat(first.turns).containsExactly(LocalQueue.Turn.PLAIN);
    queue.leave();
    thread.get(0).join(5_000);
    assertThat(order).containsExactly(0);
    assertThat(last.turns).isEmpty();
    queue.leave();
    assertThat(last.turns).containsExactly(LocalQueue.Turn.PLAIN);
  }

  @Test
  void aWithdrawnRegistrationPassesTheTurnOnAndIsNotTold() throws Exception {
    LocalQueue permits = new LocalQueue(2);
    permits.register(new Recorded(), null);
    permits.register(new Recorded(), null);
    Recorded withdrawn = new Recorded();
    Recorded next = new Recorded();
    permits.register(withdrawn, null);
    permits.register(next, null);
    permits.leave();
    assertThat(withdrawn.turns).hasSize(1);
    assertThat(permits.withdraw(withdrawn)).as("withdrawn after its turn came").isFalse();
    assertThat(permits.withdraw(next)).isTrue();
    permits.leave();
    assertThat(next.turns).isEmpty();
    assertThat(permits.register(new Recorded(), null)).as("the turn left free").isNotNull();
  }

  @Test
  void aLeaseIsHandedOverToARegistrationThatAcceptsItsTerms() {
    HandoverTerms terms = new HandoverTerms(Duration.ofSeconds(30), false, Optional.empty(), false);
    queue.register(new Recorded(), terms);
    Recorded other = new Recorded();
    queue.register(other, new HandoverTerms(Duration.ofSeconds(5), false, Optional.empty(), false));
    assertThat(queue.handOver(terms, null, taker -> true)).as("terms the head does not accept").isFalse();
    queue.leave();
    Recorded accepting = new Recorded();
    queue.register(accepting, terms);
    assertThat(queue.hasWaiter()).isTrue();
    assertThat(queue.handOver(terms, null, taker -> true)).isTrue();
    assertThat(accepting.turns).hasSize(1);
    assertThat(queue.hasWaiter()).isFalse();
  }

  /**
   * An entry held for one multi-lock's keys passes to a waiter for another's only where its record can be rewritten,
   * and the holder is told the waiter's keys before the waiter has the lease.
   */
  @Test
  void aLeaseForSomeKeysPassesToAWaiterForOthersOnlyWhereItsRecordCanBeRewritten() {
    Duration ttl = Duration.ofSeconds(30);
    MultiLock pair = MultiLock.of(List.of("a", "b"));
    MultiLock other = MultiLock.of(List.of("a", "c"));
    HandoverTerms waiter = new HandoverTerms(ttl, false, Optional.of(other), false);
    assertThat(queue.register(new Recorded(), null)).as("the holder's turn").isNotNull();
    Recorded waiting = new Recorded();
    queue.register(waiting, waiter);
    List<HandoverTerms> told = new ArrayList<>();
    assertThat(queue.handOver(new HandoverTerms(ttl, false, Optional.of(pair), false), null, told::add))
        .as("a record that stays as written").isFalse();
    assertThat(told).isEmpty();
    assertThat(queue.handOver(new HandoverTerms(ttl, false, Optional.of(pair), true), null, taker -> {
      assertThat(waiting.turns).as("told before the waiter has it").isEmpty();
      return told.add(taker);
    })).as("a record rewritten as the entry passes").isTrue();
    assertThat(told).containsExactly(waiter);
    assertThat(waiting.turns).hasSize(1);
  }

  @Test
  void closingTellsRegistrations() {
    queue.register(new Recorded(), null);
    Recorded waiting = new Recorded();
    queue.register(waiting, null);
    queue.close("client closed");
    assertThat(waiting.closed).containsExactly("client closed");
    assertThat(queue.withdraw(waiting)).isFalse();
    assertThatThrownBy(() -> queue.register(new Recorded(), null)).hasMessage("client closed");
  }

  /** A registration that notes what it is told. */
  private static final class Recorded implements LocalQueue.Registration {
    final List<LocalQueue.Turn> turns = new CopyOnWriteArrayList<>();
    final List<String> closed = new CopyOnWriteArrayList<>();

    @Override
    public void turnCame(LocalQueue.Turn turn) {
      turns.add(turn);
    }

    @Override
    public void closed(String message) {
      closed.add(message);
    }
  }

  /**
   * Starts {@code count} threads, one after the other once the one before waits, each entering {@code on} and noting
   * its number in {@code order} when it has a turn, then leaving again if {@code leaving}.
   */
  private static List<Thread> startWaiters(LocalQueue on, int count, List<Integer> order, boolean leaving) {
    List<Thread> waiters = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = i;
      Thread t = new Thread(() -> {
        try {
          on.enter(Deadline.after(TIME, Optional.empty()), true, null);
          order.add(id);
          if (leaving) {
            on.leave();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      t.start();
      waiters.add(t);
      await().until(() -> t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING);
    }
    return waiters;
  }
}
