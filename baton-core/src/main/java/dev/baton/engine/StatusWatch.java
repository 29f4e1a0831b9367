package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.LockStatus;
import dev.baton.spi.KeyWatch;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a key's status on the client's background threads whenever it may have changed, and hands each read to a
 * {@link Reader}, until it is closed: what watching the leader ({@link LeaderWatching}) and a lingering entry's look-out
 * for other clients' waiters ({@link LingerWatch}) have in common. Each read first sets the store's watch of the key
 * ({@link dev.baton.spi.LockBackend#watchKey}), which signals the next change once, so that a change after the read is
 * never missed; a timer reads again besides, for what a store does not signal, and is all there is where the store
 * cannot watch.
 *
 * <p>Invariants: at most one read runs or is queued at a time ({@code reading}); a signal during a read asks for one
 * more ({@code again}). Once {@code closed}, no read starts, and the store's watch is closed. Who writes what:
 * {@code reading}, {@code again}, {@code signalled}, {@code timer} and {@code storeWatch} under {@code this}; {@code closed} by
 * {@link #close}, under {@code this}.
 */
final class StatusWatch {
  private static final Logger log = LoggerFactory.getLogger(StatusWatch.class);

  /** What is done with each status read. */
  interface Reader {
    /**
     * Takes one read of the key's status, on a background thread; one read at a time. {@code signalled}: the store
     * signalled a change of the key's entries since the last read (not only the timer or the first read).
     */
    void read(LockStatus status, boolean signalled);
  }

  private final Engine engine;
  private final String key;
  /** What the watch is for, in its log lines: {@code the leader of 'k'}. */
  private final String what;
  private final Duration unwatchedReadsEvery;
  private final Duration watchedReadsEvery;
  private final Reader reader;
  private volatile boolean closed;
  private boolean reading;
  private boolean again;
  /** Whether the store signalled a change since the last read began. */
  private boolean signalled;
  private Future<?> timer;
  private KeyWatch storeWatch;

  /**
   * @param unwatchedReadsEvery how often the status is read where the store cannot watch the key
   * @param watchedReadsEvery how often it is read besides the store's signals
   */
  StatusWatch(Engine engine, String key, String what, Duration unwatchedReadsEvery, Duration watchedReadsEvery,
      Reader reader) {
    this.engine = engine;
    this.key = key;
    this.what = what;
    this.unwatchedReadsEvery = unwatchedReadsEvery;
    this.watchedReadsEvery = watchedReadsEvery;
    this.reader = reader;
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
      log.debug("Client closing; watching {} reads no more", what);
    }
  }

  /** Whether {@link #close} was called. */
  boolean isClosed() {
    return closed;
  }

  /** The store's watch fired: a change of the key's entries. */
  private void storeSignalled() {
    synchronized (this) {
      signalled = true;
    }
    changed();
  }

  private void read() {
    boolean watched = watchAgain();
    boolean sinceLastRead;
    synchronized (this) {
      sinceLastRead = signalled;
      signalled = false;
    }
    try {
      LockStatus status = engine.backend().status(key);
      if (!closed) {
        reader.read(status, sinceLastRead);
      }
    } catch (BackendUnavailableException e) {
      log.debug("Watching {}: {}; reading again later", what, e.getMessage());
    } catch (RuntimeException e) {
      log.warn("Watching {} failed; reading again later", what, e);
    }
    boolean readAgain;
    synchronized (this) {
      reading = false;
      readAgain = again && !closed;
      again = false;
      if (!readAgain && !closed) {
        scheduleRead(watched ? watchedReadsEvery : unwatchedReadsEvery);
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
      next = engine.backend().watchKey(key, this::storeSignalled).orElse(null);
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

  /** Stops reading: no read starts, and the store's watch is closed. */
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
