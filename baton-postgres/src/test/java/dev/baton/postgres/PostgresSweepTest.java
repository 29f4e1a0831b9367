package dev.baton.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.testkit.PostgresServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rows of a crashed client go by themselves: every running client deletes expired entries of any key in the
 * background ({@code sweep.sql}), within the entries' ttl and one {@code sweepEvery}, without anyone acquiring those
 * keys; never a live entry, never one of a key an acquire is reading.
 */
class PostgresSweepTest {
  private static final int KEYS = 20;
  private static final int WAITED_KEYS = 20;
  private static final Duration TTL = Duration.ofSeconds(5);
  private static final Duration SWEEP_EVERY = Duration.ofSeconds(1);
  /** The stated bound, ttl plus sweepEvery, and slack for a loaded machine. */
  private static final Duration BOUND = TTL.plus(SWEEP_EVERY).plusSeconds(20);

  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Test
  void aKilledClientsHoldsAndWaitsAreDeletedByAnotherClientThatAcquiresNoneOfThem() throws Exception {
    try (LockClient survivor = PostgresLockClient.builder().address(postgres.uri()).sweepEvery(SWEEP_EVERY)
        .connect()) {
      List<Lease> waitedFor = new ArrayList<>();
      for (int i = 0; i < WAITED_KEYS; i++) {
        waitedFor.add(survivor.lock("crash/waited/" + i).acquire(Duration.ofSeconds(5)));
      }
      Process child = startCrashingClient("crash");
      try {
        await().atMost(Duration.ofSeconds(60))
            .untilAsserted(() -> assertThat(rows("crash/waited/%")).isGreaterThan(WAITED_KEYS + WAITED_KEYS * 4L / 5));
        // On a loaded machine the child may lose a lease or let a wait expire before it is killed: most are there.
        assertThat(rows("crash/%")).isGreaterThan(2L * KEYS + WAITED_KEYS + WAITED_KEYS * 4L / 5);
      } finally {
        child.destroyForcibly(); // SIGKILL: no release, no more renewals
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
      }

      await().atMost(BOUND).untilAsserted(() -> assertThat(rows("crash/%")).isEqualTo(WAITED_KEYS));

      assertThat(waitedFor).allMatch(Lease::isHeld);
      waitedFor.forEach(Lease::close);
    }
    assertThat(rows("%")).isZero();
  }

  @Test
  void theSweepLeavesLiveEntriesAndTheKeysAnAcquireIsReading() throws Exception {
    TestDatabase.update(postgres.server(), "INSERT INTO baton_locks (lock_key, entry_id, owner_id, holder, mode,"
        + " capacity, expires_at) VALUES ('reading/expired', 1, 'gone', '', 'EXCLUSIVE', 1, now() - interval '1 s'),"
        + " ('idle/expired', 2, 'gone', '', 'EXCLUSIVE', 1, now() - interval '1 s'),"
        + " ('idle/live', 3, 'alive', '', 'EXCLUSIVE', 1, now() + interval '1 hour')");
    // An acquire of reading/expired under way: its transaction holds the key's advisory lock (queue-lock.sql).
    try (Connection acquire = TestDatabase.inOpenTransaction(postgres.server(),
        "SELECT pg_advisory_xact_lock(hashtext('baton_locks'), hashtext('reading/expired'))");
        LockClient sweeping = PostgresLockClient.builder().address(postgres.uri())
            .sweepEvery(Duration.ofMillis(10)).connect()) {
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(rows("idle/expired")).isZero());
      assertThat(rows("reading/expired")).isOne();
      assertThat(rows("idle/live")).isOne();

      acquire.rollback();
      await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(rows("reading/expired")).isZero());
      assertThat(rows("idle/live")).isOne();
    }
    TestDatabase.update(postgres.server(), "DELETE FROM baton_locks");
  }

  @Test
  void locksTakenAndReleasedLeaveNoRow() throws Exception {
    try (LockClient client = PostgresLockClient.builder().address(postgres.uri()).sweepEvery(Duration.ofMillis(10))
        .connect()) {
      List<CompletableFuture<Lease>> leases = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        leases.add(client.lock("released/" + i).acquireAsync());
      }
      for (CompletableFuture<Lease> lease : leases) {
        lease.get(30, TimeUnit.SECONDS).close();
      }
    }
    assertThat(rows("%")).isZero();
  }

  private static long rows(String keyPattern) {
    return TestDatabase.number(postgres.server(), "SELECT count(*) FROM baton_locks WHERE lock_key LIKE "
        + TestDatabase.literal(keyPattern));
  }

  /**
   * Starts {@link CrashingClientMain} and waits until it says it holds its keys; its output is read to its end on a
   * thread of its own, so that it never blocks on a full pipe.
   */
  private static Process startCrashingClient(String prefix) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-cp",
        System.getProperty("java.class.path"), CrashingClientMain.class.getName(), postgres.uri(), prefix,
        Integer.toString(KEYS), Integer.toString(WAITED_KEYS), Long.toString(TTL.toMillis()))
        .redirectErrorStream(true).start();
    CompletableFuture<Boolean> ready = new CompletableFuture<>();
    List<String> lines = Collections.synchronizedList(new ArrayList<>());
    Thread reader = new Thread(() -> {
      try (BufferedReader output = child.inputReader(StandardCharsets.UTF_8)) {
        String line;
        while ((line = output.readLine()) != null) {
          if (line.equals(CrashingClientMain.READY)) {
            ready.complete(true);
          }
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("(its output could not be read: " + e + ")");
      }
      ready.complete(false); // it ended without saying it holds its keys, unless it said so before
    }, "crashing-client-output");
    reader.setDaemon(true);
    reader.start();
    boolean held;
    try {
      held = ready.get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      held = false;
    }
    if (!held) {
      child.destroyForcibly();
      throw new IllegalStateException("The crashing client did not hold its keys. Its output:\n"
          + String.join("\n", lines));
    }
    return child;
  }
}
