package dev.baton.engine;

import dev.baton.Leader;
import dev.baton.LeaderListener;
import dev.baton.LeaderWatch;
import dev.baton.LockStatus;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link LeaderWatch}: reads the status of the leadership's key as a {@link StatusWatch} does, and tells the
 * listener on the event thread when the leader read differs from the last one told.
 *
 * <p>Once closed, no callback starts. Who writes what: {@code told} only the read that runs (one at a time).
 */
final class LeaderWatching implements LeaderWatch {
  private static final Logger log = LoggerFactory.getLogger(LeaderWatching.class);
  /** How often the status is read when the store cannot watch the key. */
  static final Duration UNWATCHED_READS_EVERY = Duration.ofMillis(500);
  /** How often it is read besides the store's signals, for a change a store cannot see (an entry's expiry). */
  static final Duration WATCHED_READS_EVERY = Duration.ofSeconds(5);

  private final Engine engine;
  private final String key;
  private final LeaderListener listener;
  private final StatusWatch watch;
  /** The leader last told; null before the first read. */
  private Optional<Leader> told;

  LeaderWatching(Engine engine, String key, LeaderListener listener) {
    this.engine = engine;
    this.key = key;
    this.listener = listener;
    this.watch = new StatusWatch(engine, key, "the leader of '" + key + "'", UNWATCHED_READS_EVERY,
        WATCHED_READS_EVERY, this::read);
  }

  @Override
  public String key() {
    return key;
  }

  /** Starts watching: reads now, and from then on as the key changes. */
  void start() {
    watch.changed();
  }

  private void read(LockStatus status, boolean signalled) {
    Optional<Leader> leader = Leader.of(status);
    if (!leader.equals(told)) {
      told = leader;
      engine.events().dispatch(() -> tell(leader));
    }
  }

  private void tell(Optional<Leader> leader) {
    if (watch.isClosed()) {
      return;
    }
    try {
      listener.leaderChanged(leader);
    } catch (RuntimeException e) {
      log.warn("A leader listener of '{}' threw", key, e);
    }
  }

  @Override
  public void close() {
    watch.close();
    engine.forgetWatch(this);
  }
}
