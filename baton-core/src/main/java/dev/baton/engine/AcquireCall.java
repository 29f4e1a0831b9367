package dev.baton.engine;

/** One blocking acquire, run on the calling thread; returns null when the lock was not acquired. */
@FunctionalInterface
interface AcquireCall {
  ReleasableLease call() throws InterruptedException;
}
