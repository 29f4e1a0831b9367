package dev.baton.spi;

/** Signalled by a backend when a waiting attempt should try again. Safe to call from any thread, any number of times. */
@FunctionalInterface
public interface WakeUp {
  void signal();
}
