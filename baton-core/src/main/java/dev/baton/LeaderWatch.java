package dev.baton;

/**
 * A watch on who leads a leadership name, made by {@link LockClient#watchLeadership}. Close it to stop; closing the
 * client closes it too.
 */
public interface LeaderWatch extends AutoCloseable {

  /** The name watched. */
  String key();

  /** Stops the watch: its listener is told nothing more once this returns. Idempotent. */
  @Override
  void close();
}
