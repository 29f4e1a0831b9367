package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Readers of one client that share one entry cost the store one renewal stream, not one each: the server's own count
 * of script calls ({@code INFO commandstats}) grows, while eight threads hold the read lock of one key, no faster than
 * one entry renewed every third of its ttl (or half of that, as the watchdog renews up to half an interval early to
 * batch entries). Renewed lease by lease, the eight would send eight calls a tick.
 */
@Timeout(60)
class RedisRenewalPerEntryTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  private static final int READERS = 8;
  private static final Duration TTL = Duration.ofMillis(1500);
  /** The shortest gap between two renewals of one entry: half of the renewal interval, a third of the ttl. */
  private static final long MIN_RENEWAL_GAP_NANOS = TTL.toNanos() / 3 / 2;
  /** Enough renewals to see a stream's pace: several seconds of it. */
  private static final int RENEWALS = 8;
  private static final Pattern SCRIPT_CALLS = Pattern.compile("cmdstat_eval(?:sha)?(?:_ro)?:calls=(\\d+)");

  private final ExecutorService readers = Executors.newFixedThreadPool(READERS);
  private final List<LockClient> clients = new ArrayList<>();

  @AfterEach
  void close() {
    readers.shutdownNow();
    clients.forEach(LockClient::close);
  }

  @Test
  void eightReadersOfOneKeyInOneClientCostOneRenewalStream() throws Exception {
    LockClient client = RedisLockClient.builder().uri(redis.uri()).defaultOptions(LockOptions.defaults().withTtl(TTL))
        .connect();
    clients.add(client);
    List<Future<Lease>> acquires = new ArrayList<>();
    for (int i = 0; i < READERS; i++) {
      acquires.add(readers.submit(() -> client.readWriteLock("shared").readLock().acquire(Duration.ofSeconds(10))));
    }
    List<Lease> leases = new ArrayList<>();
    for (Future<Lease> acquire : acquires) {
      leases.add(acquire.get());
    }
    assertThat(leases).extracting(Lease::fencingToken).as("one entry at the store: its token")
        .containsOnly(leases.get(0).fencingToken());

    redis.command("CONFIG", "RESETSTAT");
    long start = System.nanoTime();
    await("renewals of the shared entry").atMost(Duration.ofSeconds(20)).until(() -> scriptCalls() >= RENEWALS);
    long calls = scriptCalls();
    long elapsed = System.nanoTime() - start;

    assertThat(leases).allMatch(Lease::isHeld);
    assertThat(calls).as("script calls in %d ms while %d readers held one entry", elapsed / 1_000_000, READERS)
        .isLessThanOrEqualTo(1 + elapsed / MIN_RENEWAL_GAP_NANOS);
    leases.forEach(Lease::close);
  }

  /** How many scripts the server ran since its statistics were reset. */
  private static long scriptCalls() {
    Matcher calls = SCRIPT_CALLS.matcher((String) redis.command("INFO", "commandstats"));
    long total = 0;
    while (calls.find()) {
      total += Long.parseLong(calls.group(1));
    }
    return total;
  }
}
