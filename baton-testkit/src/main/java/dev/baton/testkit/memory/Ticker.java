package dev.baton.testkit.memory;

/**
 * A source of time in nanoseconds, as {@link System#nanoTime()} gives it: what an {@link InMemoryStore} expires its
 * entries by. Tests that need to move time themselves pass their own.
 */
@FunctionalInterface
public interface Ticker {
  /** The system's monotonic clock. */
  Ticker SYSTEM = System::nanoTime;

  /** Nanoseconds since some fixed origin; only differences mean anything. */
  long read();
}
