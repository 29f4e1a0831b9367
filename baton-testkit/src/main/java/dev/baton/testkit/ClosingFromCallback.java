package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A close run from inside one of a client's callbacks (a lost-lock or leadership listener, an observer, a callback of
 * an asynchronous acquire), as an application closes its client on losing a lock: what it took and what it threw.
 */
final class ClosingFromCallback {
  /**
   * How long the close may take: generous for a loaded machine, and well under the 5 s a close once waited for the
   * very thread it ran on.
   */
  static final Duration CLOSES_WITHIN = Duration.ofMillis(2500);
  private static final Duration CALLED_WITHIN = Duration.ofSeconds(10);

  private final AutoCloseable closing;
  private final LockClient client;
  private final CompletableFuture<Duration> took = new CompletableFuture<>();

  /**
   * @param closing what the callback closes: the client, or something of it (a leadership)
   * @param client the client whose threads must all end after the close
   */
  ClosingFromCallback(AutoCloseable closing, LockClient client) {
    this.closing = closing;
    this.client = client;
  }

  /** Closes; for the callback to call. The first call only counts. */
  void close() {
    long start = System.nanoTime();
    try {
      closing.close();
      took.complete(Duration.ofNanos(System.nanoTime() - start));
    } catch (Throwable t) {
      took.completeExceptionally(t);
    }
  }

  /** Checks that the callback closed, promptly and without throwing. */
  void assertPrompt() throws Exception {
    Duration closeTook = took.get(CALLED_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(closeTook).as("close from inside a callback of %s", client).isLessThan(CLOSES_WITHIN);
  }

  /** Checks that the callback closed the client promptly and without throwing, and then no thread of it is left. */
  void assertPromptAndNoThreadLeft() throws Exception {
    assertPrompt();
    assertNoThreadLeft(client);
  }

  /** Waits (up to 5 s) until no thread of {@code client} (named {@code baton-...-CLIENTID-N}) is alive. */
  static void assertNoThreadLeft(LockClient client) {
    await("the threads of " + client + " ended").atMost(Duration.ofSeconds(5))
        .until(() -> Thread.getAllStackTraces().keySet().stream()
            .noneMatch(thread -> thread.isAlive() && thread.getName().startsWith("baton-")
                && thread.getName().contains("-" + client.clientId() + "-")));
  }
}
