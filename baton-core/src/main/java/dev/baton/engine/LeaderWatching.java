package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.Leader;
import dev.baton.LeaderListener;
import dev.baton.LeaderWatch;
import dev.baton.spi.KeyWatch;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link LeaderWatch}: reads the status of the leadership's key on the client's background threads, and tells
 * the listener on the event thread when the leader read differs from the last one told. Each read first sets the
 * store's watch of the key ({@link dev.baton.spi.LockBackend#watchKey}), which signals the next change once, so
 * that a change after the read is never missed; a timer reads again besides, for what a store does not signal.
 *
 * <p>Invariants: at most one read runs or is queued at a time ({@code reading}); a signal during a read asks for one
 * more ({@code again}). Once {@code closed}, no read starts, no callback starts, and the store's watch is closed.
 * Who writes what: {@code told} only the read that runs; {@code reading}, {@code again}, {@code timer} and
 * {@code storeWatch} under {@code this}; {@code closed} by {@link #close}, under {@code this}.
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
  private volatile boolean closed;
  /** The leader last told; null before the first read. */
  private Optional<Leader> told;
  private boolean reading;
  private boolean again;
  private Future<?> timer;
  private KeyWatch storeWatch;

  LeaderWatching(Engine engine, String key, LeaderListener listener) {
    this.engine = engine;
    this.key = key;
    this.listener = listener;
  }

  @Override
  public String key() {
    return key;
  }

  /** Something may have changed, or it is time to look: read, now or once the read under way is done. */
  void changed() {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      if (timer != null) {
        timer.cancel(false);
        timer = null;
      }
    }
    try {
      engine.background().execute(this::read);
    } catch (RejectedExecutionException clientClosed) {
      log.debug("Client closing; the watch of '{}' reads no more", key);
    }
  }

  private void read() {
    boolean watched = watchAgain();
    try {
      Optional<Leader> leader = Leader.of(engine.backend().status(key));
      if (!leader.equals(told)) {
        told = leader;
        engine.events().dispatch(() -> tell(leader));
      }
    } catch (BackendUnavailableException e) {
      log.debug("Watching the leader of '{}': {}; reading again later", key, e.getMessage());
    } catch (RuntimeException e) {
      log.warn("Watching the leader of '{}' failed; reading again later", key, e);
    }
    boolean readAgain;
    synchronized (this) {
      reading = false;
      readAgain = again && !closed;
      again = false;
      if (!readAgain && !closed) {
        scheduleRead(watched ? WATCHED_READS_EVERY : UNWATCHED_READS_EVERY);
      }
    }
    if (readAgain) {
      changed();
    }
  }

  /** Sets the store's watch for the next change, in place of the last one; whether the store watches. */
  private boolean watchAgain() {
    KeyWatch next;
    try {
      next = engine.backend().watchKey(key, this::changed).orElse(null);
    } catch (BackendUnavailableException e) {
      log.debug("Watching '{}' at the store: {}; reading again later", key, e.getMessage());
      next = null;
    }
    KeyWatch previous;
    synchronized (this) {
      if (closed) {
        previous = next;
      } else {
        previous = storeWatch;
        storeWatch = next;
      }
    }
    closeQuietly(previous);
    return next != null;
  }

  private void scheduleRead(Duration after) {
    try {
      timer = engine.time().schedule(this::changed, after.toNanos());
    } catch (RejectedExecutionException clientClosed) {
      timer = null;
    }
  }

  private void tell(Optional<Leader> leader) {
    if (closed) {
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
    KeyWatch stopping;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (timer != null) {
        timer.cancel(false);
        timer = null;
      }
      stopping = storeWatch;
      storeWatch = null;
    }
    closeQuietly(stopping);
    engine.forgetWatch(this);
  }

  private void closeQuietly(KeyWatch watch) {
    if (watch == null) {
      return;
    }
    try {
      watch.close();
    } catch (RuntimeException e) {
      log.debug("Closing the store's watch of '{}' failed", key, e);
    }
  }
}
