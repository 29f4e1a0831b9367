package dev.baton.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The release-request listeners of one lease: each is called once per request, on the client's event thread. */
final class ReleaseListeners {
  private static final Logger log = LoggerFactory.getLogger(ReleaseListeners.class);

  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final String key;
  private final Events events;

  ReleaseListeners(String key, Events events) {
    this.key = key;
    this.events = events;
  }

  void add(Runnable listener) {
    if (listener == null) {
      throw new IllegalArgumentException("The release-request listener of '" + key + "' must not be null.");
    }
    listeners.add(listener);
  }

  /** Whether a listener was added: only then is a request worth telling. */
  boolean isEmpty() {
    return listeners.isEmpty();
  }

  /** A request to release arrived: tells every listener added so far, once. */
  void requested() {
    listeners.forEach(listener -> events.dispatch(() -> call(listener)));
  }

  private void call(Runnable listener) {
    try {
      listener.run();
    } catch (RuntimeException e) {
      log.warn("A release-request listener of '{}' threw", key, e);
    }
  }
}
