package dev.baton.engine;

/** One acquire, to run now or on a worker thread; returns null when the lock was not acquired. */
@FunctionalInterface
interface AcquireCall {
  EngineLease call() throws InterruptedException;
}
