package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.spi.KeyWatch;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks out, for an entry that lingers ({@link HeldEntry}), for another client waiting for its key: reads the key's
 * status on the client's background threads and tells the entry once it counts a waiter ({@link dev.baton.LockStatus#waiters}),
 * then stops. Each read first sets the store's watch of the key ({@link dev.baton.spi.LockBackend#watchKey}), which
 * signals the next change once, so that a waiter coming after the read is never missed; a store that cannot watch is
 * read every {@link #UNWATCHED_READS_EVERY}, which is the cost of a lingering key there: one status read per key four
 * times a second, from the entry's first linger to its end. Done as {@link LeaderWatching} does it.
 *
 * <p>Invariants: at most one read runs or is queued at a time ({@code reading}); a signal during a read asks for one
 * more ({@code again}). Once {@code closed}, no read starts and the store's watch is closed. Who writes what:
 * {@code reading}, {@code again}, {@code timer} and {@code storeWatch} under {@code this}; {@code closed} by
 * {@link #close} or by the read that found a waiter, under {@code this}.
 */
final class LingerWatch {
  private static final Logger log = LoggerFactory.getLogger(LingerWatch.class);
  /** How often the status is read when the store cannot watch the key: a waiter is seen within this. */
  static final Duration UNWATCHED_READS_EVERY = Duration.ofMillis(250);
  /** How often it is read besides the store's signals, for a waiter a store's watch misses. */
  static final Duration WATCHED_READS_EVERY = Duration.ofSeconds(2);

  private final Engine engine;
  private final HeldEntry entry;
  private final String key;
  private boolean closed;
  private boolean reading;
  private boolean again;
  private Future<?> timer;
  private KeyWatch storeWatch;

  LingerWatch(Engine engine, HeldEntry entry) {
    this.engine = engine;
    this.entry = entry;
    this.key = entry.grant().request().key();
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
      log.debug("Client closing; the linger watch of '{}' reads no more", key);
    }
  }

  private void read() {
    boolean watched = watchAgain();
    boolean othersWait = false;
    try {
      othersWait = engine.backend().status(key).waiters() > 0;
    } catch (BackendUnavailableException e) {
      log.debug("Watching '{}' for waiters: {}; reading again later", key, e.getMessage());
    } catch (RuntimeException e) {
      log.warn("Watching '{}' for waiters failed; reading again later", key, e);
    }
    if (othersWait) {
      close();
      entry.othersWait();
      return;
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

  /** Stops looking: no read starts, and the store's watch is closed. */
  void close() {
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
