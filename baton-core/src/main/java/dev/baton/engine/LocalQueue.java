package dev.baton.engine;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The per-process queue of one key: whoever has the turn may talk to the store, from its first try
 * until it releases the lock; the others wait here in order of arrival, on a condition each, without
 * touching the store.
 */
final class LocalQueue {
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Condition> waiting = new ArrayDeque<>();
  private boolean taken;
  private String closedMessage;

  /**
   * Waits for the turn.
   *
   * @param interruptible whether an interrupt ends the wait; if not, the interrupt is kept for later
   * @return true with the turn, false if the deadline passed first
   * @throws IllegalStateException if the queue was closed
   */
  boolean enter(Deadline deadline, boolean interruptible) throws InterruptedException {
    lock.lock();
    try {
      checkOpen();
      if (!taken && waiting.isEmpty()) {
        taken = true;
        return true;
      }
      return awaitTurn(deadline, interruptible);
    } finally {
      lock.unlock();
    }
  }

  private boolean awaitTurn(Deadline deadline, boolean interruptible) throws InterruptedException {
    Condition turn = lock.newCondition();
    waiting.addLast(turn);
    boolean entered = false;
    boolean interrupted = false;
    try {
      while (true) {
        checkOpen();
        if (!taken && waiting.peekFirst() == turn) {
          taken = true;
          entered = true;
          return true;
        }
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          return false;
        }
        try {
          turn.awaitNanos(nanos);
        } catch (InterruptedException e) {
          if (interruptible) {
            throw e;
          }
          interrupted = true;
        }
      }
    } finally {
      waiting.remove(turn);
      if (!entered && !taken) {
        signalHead();
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Gives the turn to the next waiter. */
  void leave() {
    lock.lock();
    try {
      taken = false;
      signalHead();
    } finally {
      lock.unlock();
    }
  }

  /** Fails every waiter, now and later, with {@code message}. */
  void close(String message) {
    lock.lock();
    try {
      closedMessage = message;
      waiting.forEach(Condition::signal);
    } finally {
      lock.unlock();
    }
  }

  private void signalHead() {
    Condition head = waiting.peekFirst();
    if (head != null) {
      head.signal();
    }
  }

  private void checkOpen() {
    if (closedMessage != null) {
      throw new IllegalStateException(closedMessage);
    }
  }
}
