package dev.baton.engine;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The per-process queue of one key: whoever has a turn may talk to the store, from its first try
 * until it releases the lock; the others wait here in order of arrival, on a condition each, without
 * touching the store. A holder that releases may hand its lease at the store over to the first waiter
 * with the turn, when that waiter accepts its {@link HandoverTerms}: the lock then changes hands in
 * this process without a round trip to the store.
 *
 * <p>There is one turn, or more for a semaphore's permits: as many as the permits, so that as many threads may wait
 * at the store, where they queue in the order they came here in, as every permit could go to one of them at once.
 *
 * <p>A waiter is a thread ({@link #enter}) or a {@link Registration} without one ({@link #register}), which an
 * asynchronous acquire leaves: both queue in one order; a registration is given its turn, or a lease handed over, by
 * whoever frees it, and told under this queue's lock.
 */
final class LocalQueue {
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
  private final int turns;
  private int taken;
  private Waiter handedTo;
  private EngineLease handedOver;
  private String closedMessage;

  /**
   * The turn, and the lease handed over with it, if the previous holder handed one over.
   *
   * @param handedOver the lease now ours, held at the store, or null: then talk to the store
   */
  record Turn(EngineLease handedOver) {
    static final Turn PLAIN = new Turn(null);
  }

  /** @param turns how many threads may have a turn at once: 1, or a semaphore's permits */
  LocalQueue(int turns) {
    this.turns = turns;
  }

  /** A waiter without a thread: told of its turn, or that the queue closed, under the queue's lock, so it only hands on. */
  interface Registration {
    /** The turn is this waiter's now, with the lease handed over with it if any. */
    void turnCame(Turn turn);

    /** The queue closed with {@code message} before the turn came. */
    void closed(String message);
  }

  /** One waiting thread, on its condition, or one registration, and the lease it would take over. */
  private record Waiter(Condition turn, Registration registration, HandoverTerms terms) {}

  /**
   * Waits for the turn. A lease handed over to this waiter is taken even if the deadline passes or an
   * interrupt comes meanwhile: it was handed over while the waiter still waited (the interrupt is kept).
   *
   * @param interruptible whether an interrupt ends the wait; if not, the interrupt is kept for later
   * @param terms the leases this waiter takes over, or null for none
   * @return the turn, or null if the deadline passed first
   * @throws IllegalStateException if the queue was closed
   */
  Turn enter(Deadline deadline, boolean interruptible, HandoverTerms terms) throws InterruptedException {
    lock.lock();
    try {
      checkOpen();
      if (taken < turns && waiting.isEmpty()) {
        taken++;
        return Turn.PLAIN;
      }
      return awaitTurn(new Waiter(lock.newCondition(), null, terms), deadline, interruptible);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes the turn if it is free and no one waits for it, without waiting: true; false, and nothing changes, if not.
   *
   * @throws IllegalStateException if the queue was closed
   */
  boolean tryEnter() {
    lock.lock();
    try {
      checkOpen();
      if (taken < turns && waiting.isEmpty()) {
        taken++;
        return true;
      }
      return false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Registers for the turn without a thread: the turn if it is free now (then nothing is registered), else null, and
   * {@code registration} is told when the turn comes or the queue closes, unless {@link #withdraw withdrawn} first.
   *
   * @param terms the leases this waiter takes over, or null for none
   * @throws IllegalStateException if the queue was closed
   */
  Turn register(Registration registration, HandoverTerms terms) {
    lock.lock();
    try {
      checkOpen();
      if (taken < turns && waiting.isEmpty()) {
        taken++;
        return Turn.PLAIN;
      }
      waiting.addLast(new Waiter(null, registration, terms));
      return null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes {@code registration} out of the queue (its deadline passed, its acquire was cancelled): whether it still
   * waited. False if its turn came or the queue closed first: then it was told so, or is being told.
   */
  boolean withdraw(Registration registration) {
    lock.lock();
    try {
      if (!waiting.removeIf(waiter -> waiter.registration() == registration)) {
        return false;
      }
      if (taken < turns) {
        signalHead();
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private Turn awaitTurn(Waiter me, Deadline deadline, boolean interruptible) throws InterruptedException {
    waiting.addLast(me);
    boolean withTurn = false;
    boolean interrupted = false;
    Runnable forgetWakeUp = deadline.stop().onStop(() -> wake(me));
    try {
      while (true) {
        if (handedTo == me) {
          EngineLease lease = handedOver;
          handedTo = null;
          handedOver = null;
          return new Turn(lease);
        }
        checkOpen();
        if (taken < turns && waiting.peekFirst() == me) {
          taken++;
          withTurn = true;
          return Turn.PLAIN;
        }
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          return null;
        }
        try {
          deadline.time().awaitNanos(me.turn(), nanos);
        } catch (InterruptedException e) {
          if (interruptible && handedTo != me) {
            throw e;
          }
          interrupted = true;
        }
      }
    } finally {
      forgetWakeUp.run();
      waiting.remove(me);
      // A waiter that leaves without a turn (timed out, interrupted) passes on the signal it may have taken from the
      // next one; one that took a turn wakes the next if a turn is still free.
      if (taken < turns) {
        signalHead();
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Wakes the thread of {@code me}, which then sees its deadline stopped. */
  private void wake(Waiter me) {
    lock.lock();
    try {
      me.turn().signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands {@code successor}, the lease of the holder that is leaving with the turn, over to the first waiter with the
   * turn if {@code terms} may pass to that waiter's ({@link HandoverTerms#passTo}) and {@code taking}, asked with the
   * waiter's terms under this queue's lock before the waiter may run, agrees. False, and nothing changes, if there is
   * no such waiter or {@code taking} refused: a turn the successor's entry left meanwhile (it was lost) went on to the
   * first waiter, and must not be handed on a second time.
   */
  boolean handOver(HandoverTerms terms, EngineLease successor, Predicate<HandoverTerms> taking) {
    lock.lock();
    try {
      Waiter head = waiting.peekFirst();
      if (closedMessage != null || head == null || !terms.passTo(head.terms()) || handedTo != null) {
        return false;
      }
      if (!taking.test(head.terms())) {
        return false;
      }
      if (head.registration() != null) {
        waiting.removeFirst();
        head.registration().turnCame(new Turn(successor));
        return true;
      }
      handedTo = head;
      handedOver = successor;
      head.turn().signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether a thread waits for the turn: only then is a successor lease worth making for {@link #handOver}. */
  boolean hasWaiter() {
    lock.lock();
    try {
      return !waiting.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** Gives the turn to the next waiter. */
  void leave() {
    lock.lock();
    try {
      taken--;
      signalHead();
    } finally {
      lock.unlock();
    }
  }

  /** Fails every waiter, now and later, with {@code message}; a lease already handed over is still taken. */
  void close(String message) {
    lock.lock();
    try {
      closedMessage = message;
      waiting.removeIf(waiter -> {
        if (waiter.registration() == null) {
          waiter.turn().signal();
          return false;
        }
        waiter.registration().closed(message);
        return true;
      });
    } finally {
      lock.unlock();
    }
  }

  /**
   * Wakes the first waiting thread, which takes the turn if one is free, or gives the free turns to the registrations
   * at the head of the queue, in order.
   */
  private void signalHead() {
    Waiter head = waiting.peekFirst();
    while (head != null && head.registration() != null && taken < turns && closedMessage == null) {
      waiting.removeFirst();
      taken++;
      head.registration().turnCame(Turn.PLAIN);
      head = waiting.peekFirst();
    }
    if (head != null && head.registration() == null) {
      head.turn().signal();
    }
  }

  private void checkOpen() {
    if (closedMessage != null) {
      throw new IllegalStateException(closedMessage);
    }
  }
}
