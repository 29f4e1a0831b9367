package dev.baton.memory;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.engine.memory.MemoryStore;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Clients of a lock store inside this JVM, for testing code that locks without a server:
 *
 * <pre>{@code
 * try (LockClient first = MemoryLockClient.connect("memory://orders");
 *     LockClient second = MemoryLockClient.connect("memory://orders")) {
 *   // two instances of a service, one store: their locks exclude each other
 * }
 * }</pre>
 *
 * <p>{@code memory://} is the JVM's default store, {@code memory://NAME} the store named NAME; every client of one
 * name shares its store, so that a test can play several instances of a service in one JVM, and clients of other
 * names never meet. A store lives while a client of it is open (a client left open keeps it): after its last client
 * is closed it is forgotten, and the next client of its name finds a new, empty store.
 *
 * <p>The store keeps Baton's promises as the stores on a server do: every primitive (locks, read-write locks,
 * semaphores, leadership), fencing tokens that grow per key, fair queues, wait and hold timeouts, the expiry of an
 * entry whose client stopped renewing it after its ttl, {@link LockClient#status} and {@link LockClient#list} with the
 * holders. It does not fail as a server does: no network, no failover, no clock of another machine. Every key the
 * engine accepts is a key here.
 *
 * <p>Its time is the JVM's clock, or a {@link FakeTicker} that the test moves
 * ({@link #connect(String, LockOptions, FakeTicker)}), so that timeouts and expiries happen when the test says.
 */
public final class MemoryLockClient {
  private static final String SCHEME = "memory://";
  private static final int MAX_NAME_LENGTH = 100;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]*");
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

  private MemoryLockClient() {}

  /** A client of the JVM's default store, {@code memory://}, with the default lock options. */
  public static LockClient connect() {
    return connect(SCHEME, LockOptions.defaults());
  }

  /**
   * A client of the store {@code store} names, with the default lock options.
   *
   * @param store {@code memory://NAME} or just {@code NAME}: letters, digits, {@code .}, {@code _} and {@code -}, at
   *     most 100; {@code memory://} or {@code ""} for the JVM's default store
   * @throws IllegalArgumentException if {@code store} is null or no such name
   */
  public static LockClient connect(String store) {
    return connect(store, LockOptions.defaults());
  }

  /**
   * As {@link #connect(String)}, with {@code defaults} the options of handles from {@link LockClient#lock(String)}.
   *
   * @throws IllegalArgumentException if {@code store} is null or no such name, or {@code defaults} is null
   */
  public static LockClient connect(String store, LockOptions defaults) {
    return connect(store, null, defaults);
  }

  /**
   * As {@link #connect(String, LockOptions)}, with the keys of {@code namespace}: clients of one namespace of a store
   * share its keys, and meet no client of another namespace or of none, as {@code baton.namespace} or
   * {@code ConnectionSettings.namespace} separate the keys of clients on a server.
   *
   * @param namespace words of letters, digits, {@code .}, {@code _} or {@code -} joined by {@code /}, such as
   *     {@code team/orders}; null for none
   * @throws IllegalArgumentException if {@code store} is null or no such name, {@code namespace} no such words, or
   *     {@code defaults} is null
   */
  public static LockClient connect(String store, String namespace, LockOptions defaults) {
    return connect(store, namespace, defaults, null);
  }

  /**
   * As {@link #connect(String, LockOptions)}, on the fake time {@code time}: the client waits, times out, renews and
   * loses its locks when the test {@link FakeTicker#advance advances} it, and the store expires entries by it. Every
   * client of one store runs on the same time: the first client of a store not in use sets it.
   *
   * @throws IllegalArgumentException if {@code store} is null or no such name, {@code defaults} is null, or
   *     {@code time} is null
   * @throws IllegalStateException if the store is in use on another time: by clients on the system's time or on
   *     another {@link FakeTicker}
   */
  public static LockClient connect(String store, LockOptions defaults, FakeTicker time) {
    if (time == null) {
      throw new IllegalArgumentException("The fake time must not be null: pass a new FakeTicker(), or use"
          + " connect(store, defaults) for the system's time.");
    }
    return connect(store, null, defaults, time);
  }

  private static LockClient connect(String store, String namespace, LockOptions defaults, FakeTicker time) {
    if (defaults == null) {
      throw new IllegalArgumentException("The default options must not be null; use LockOptions.defaults().");
    }
    if (namespace != null && !NAMESPACE.matcher(namespace).matches()) {
      throw new IllegalArgumentException("The namespace must be words of letters, digits, '.', '_' or '-' joined by"
          + " '/', such as \"orders\" or \"team/orders\", but was '" + namespace + "'.");
    }
    MemoryStore opened = MemoryStore.open(name(store), namespace, time);
    try {
      return opened.connect(defaults);
    } finally {
      opened.close();
    }
  }

  /** The name in {@code store}: a {@code memory://} URI's, or {@code store} itself. */
  private static String name(String store) {
    if (store == null) {
      throw new IllegalArgumentException("No in-memory store given: use memory:// for the JVM's default store or"
          + " memory://NAME for a named one.");
    }
    String trimmed = store.trim();
    String name = trimmed.toLowerCase(Locale.ROOT).startsWith(SCHEME) ? trimmed.substring(SCHEME.length()) : trimmed;
    if (!NAME.matcher(name).matches() || name.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException("The in-memory store '" + store + "' is not memory:// or memory://NAME with a"
          + " NAME of letters, digits, '.', '_' or '-' (at most " + MAX_NAME_LENGTH + "), such as memory://orders;"
          + " it takes no host, port, path or parameters.");
    }
    return name;
  }
}
