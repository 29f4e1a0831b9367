package dev.baton;

import java.util.Optional;

/**
 * A candidacy for the leadership named by {@link #key()}: at most one leader at a time among every process that
 * uses the same store and name. Once {@link #start() started}, the candidate waits in line; when elected, its term is
 * a {@link Lease} of the name's exclusive lock, renewed while it leads, with a fencing token that grows with every
 * election.
 *
 * <ul>
 *   <li>A leader that loses its term (its entry removed, renewals failed for a ttl, its session or lease expired, a
 *       hold timeout) is told through {@link LeadershipListener#revoked} before the store can elect another, as
 *       {@link Lease#onLost} promises, and stands again at once.
 *   <li>{@link #close()} resigns at once: the next candidate is elected without waiting for a ttl. Nothing is left at
 *       the store.
 *   <li>The name is a lock key: {@link LockClient#lock(String)} on it excludes the leaders, and the other way round.
 * </ul>
 *
 * <p>Listeners are called one at a time, in order, on the client's event thread; they must not block for long.
 */
public interface Leadership extends AutoCloseable {

  /** The name led. */
  String key();

  /**
   * Adds a listener; one added while this candidate leads is told {@link LeadershipListener#elected} at once.
   *
   * @throws IllegalArgumentException if {@code listener} is null
   */
  void addListener(LeadershipListener listener);

  /**
   * Starts standing for election, in the background. Calling it again does nothing.
   *
   * @throws IllegalStateException if this candidacy was closed
   */
  void start();

  /** Whether this candidate leads now: elected, and its term still held. */
  boolean isLeader();

  /** The term this candidate leads in, while it leads. */
  Optional<Lease> term();

  /** Resigns if leading, and stops standing. Listeners are not told of a resignation they asked for. */
  /**
   * Who leads this name now, as the store says, whether or not this candidate stands: a read of the name's lock,
   * taking nothing.
   *
   * @throws BackendUnavailableException if the store cannot be reached
   */
  Optional<Leader> currentLeader();

  @Override
  void close();
}
