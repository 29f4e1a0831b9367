package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

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
