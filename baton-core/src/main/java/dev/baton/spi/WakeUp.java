package dev.baton.spi;

/**
 * Signalled by a backend when a waiting attempt should try again. Safe to call from any thread, any number of times;
 * it never blocks (for an asynchronous acquire it hands the next try to the client's acquire threads).
 */
@FunctionalInterface
public interface WakeUp {
  void signal();
}
