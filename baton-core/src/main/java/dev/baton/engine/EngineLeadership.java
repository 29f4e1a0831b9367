package dev.baton.engine;

import dev.baton.BackendUnavailableException;
import dev.baton.Lease;
import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.LeadershipListener;
import dev.baton.LostReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A candidacy: an asynchronous acquire of the name's exclusive lock, again each time a term ends, until closed. The
 * listeners hear of elections and losses on the client's event thread, where lost-lock listeners run too, so a loss
 * is told before the store could elect another, and in order after the election it ends.
 */
final class EngineLeadership implements Leadership {
  private static final Logger log = LoggerFactory.getLogger(EngineLeadership.class);
  /** How long a candidate waits before standing again after the store could not be reached for a ttl. */
  private static final Duration STAND_AGAIN_AFTER = Duration.ofSeconds(1);

  private final Engine engine;
  private final EngineLock lock;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  /** Guards the fields below, and orders a term's start against a close. */
  private final Object candidacy = new Object();
  private boolean started;
  private boolean closed;
  private CompletableFuture<Lease> standing;
  private Lease term;

  EngineLeadership(Engine engine, EngineLock lock) {
    this.engine = engine;
    this.lock = lock;
  }

  @Override
  public String key() {
    return lock.key();
  }

  @Override
  public void addListener(LeadershipListener listener) {
    if (listener == null) {
      throw new IllegalArgumentException("The leadership listener of '" + key() + "' must not be null.");
    }
    listeners.add(listener);
    Lease current = currentTerm();
    if (current != null) {
      engine.events().dispatch(() -> {
        if (current.isHeld()) {
          tell(listener, l -> l.elected(current));
        }
      });
    }
  }

  @Override
  public void start() {
    synchronized (candidacy) {
      if (closed) {
        throw new IllegalStateException("The leadership of '" + key() + "' was closed: make a new one to stand again.");
      }
      if (started) {
        return;
      }
      started = true;
    }
    stand();
  }

  @Override
  public boolean isLeader() {
    Lease current = currentTerm();
    return current != null && current.isHeld();
  }

  @Override
  public Optional<Lease> term() {
    return Optional.ofNullable(currentTerm()).filter(Lease::isHeld);
  }

  @Override
  public Optional<Leader> currentLeader() {
    engine.ensureOpen();
    return Leader.of(engine.backend().status(key()));
  }

  @Override
  public void close() {
    CompletableFuture<Lease> pending;
    Lease resigned;
    synchronized (candidacy) {
      if (closed) {
        return;
      }
      closed = true;
      pending = standing;
      resigned = term;
      standing = null;
      term = null;
    }
    if (pending != null) {
      pending.cancel(true); // a lease granted meanwhile is released by the acquisition itself
    }
    if (resigned != null) {
      resigned.close();
    }
  }

  private Lease currentTerm() {
    synchronized (candidacy) {
      return term;
    }
  }

  /** Waits in line for the name, in the background. */
  private void stand() {
    CompletableFuture<Lease> acquisition;
    synchronized (candidacy) {
      if (closed || engine.isClosed()) {
        return;
      }
      try {
        acquisition = lock.acquireAsync(lock.options().withWaitTime(null));
      } catch (IllegalStateException | RejectedExecutionException clientClosed) {
        return;
      }
      standing = acquisition;
    }
    acquisition.whenComplete(this::elected);
  }

  private void elected(Lease lease, Throwable failure) {
    if (failure != null) {
      standAgainLater(failure);
      return;
    }
    boolean resigned;
    synchronized (candidacy) {
      resigned = closed;
      if (!resigned) {
        standing = null;
        term = lease;
      }
    }
    if (resigned) {
      lease.close(); // a release at the store: outside the monitor, which would pin a virtual thread on Java 21
      return;
    }
    lease.onLost(reason -> revoked(lease, reason));
    engine.events().dispatch(() -> {
      if (lease.isHeld()) {
        listeners.forEach(listener -> tell(listener, l -> l.elected(lease)));
      }
    });
  }

  /** Runs on the event thread, as lost-lock listeners do. */
  private void revoked(Lease lease, LostReason reason) {
    synchronized (candidacy) {
      if (term != lease) {
        return;
      }
      term = null;
    }
    log.warn("Leadership of '{}' revoked: {}; standing again", key(), reason);
    listeners.forEach(listener -> tell(listener, l -> l.revoked(reason)));
    stand();
  }

  private void standAgainLater(Throwable failure) {
    synchronized (candidacy) {
      standing = null;
      if (closed || engine.isClosed()) {
        return;
      }
    }
    if (!(failure instanceof BackendUnavailableException)) {
      log.warn("Leadership of '{}' stopped standing: {}", key(), failure.toString());
      return;
    }
    log.info("Leadership of '{}': {}; standing again in {}", key(), failure.getMessage(),
        Durations.format(STAND_AGAIN_AFTER));
    try {
      engine.time().schedule(this::stand, STAND_AGAIN_AFTER.toNanos());
    } catch (RejectedExecutionException clientClosed) {
      log.debug("Client closing; the leadership of '{}' stands no more", key());
    }
  }

  private void tell(LeadershipListener listener, Consumer<LeadershipListener> event) {
    try {
      event.accept(listener);
    } catch (RuntimeException e) {
      log.warn("A leadership listener of '{}' threw", key(), e);
    }
  }

  @Override
  public String toString() {
    return "Leadership{key='" + key() + "', leader=" + isLeader() + '}';
  }
}
