package dev.baton.engine;

import dev.baton.LockLostListener;
import dev.baton.LostReason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The lost-lock listeners of one lease: each is called at most once, on the client's event thread. */
final class LostListeners {
  private static final Logger log = LoggerFactory.getLogger(LostListeners.class);

  private final ReentrantLock lock = new ReentrantLock();
  private final List<LockLostListener> pending = new ArrayList<>();
  private final String key;
  private final Events events;
  private boolean ended;
  private LostReason reason;

  LostListeners(String key, Events events) {
    this.key = key;
    this.events = events;
  }

  void add(LockLostListener listener) {
    if (listener == null) {
      throw new IllegalArgumentException("The lost-lock listener of '" + key + "' must not be null.");
    }
    LostReason fired;
    lock.lock();
    try {
      if (!ended) {
        pending.add(listener);
        return;
      }
      fired = reason;
    } finally {
      lock.unlock();
    }
    if (fired != null) {
      events.dispatch(() -> call(listener, fired));
    }
  }

  /** The lease ended; tells the listeners if it ended by a loss ({@code reason} not null). */
  void end(LostReason lostReason) {
    List<LockLostListener> toCall;
    lock.lock();
    try {
      ended = true;
      reason = lostReason;
      toCall = lostReason == null ? List.of() : List.copyOf(pending);
      pending.clear();
    } finally {
      lock.unlock();
    }
    toCall.forEach(listener -> events.dispatch(() -> call(listener, lostReason)));
  }

  private void call(LockLostListener listener, LostReason lostReason) {
    try {
      listener.lockLost(lostReason);
    } catch (RuntimeException e) {
      log.warn("A lost-lock listener of '{}' threw; it is not called again", key, e);
    }
  }
}
