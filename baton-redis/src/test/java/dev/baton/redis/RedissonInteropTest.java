package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.DistributedLock;
import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.testkit.BackgroundCall;
import dev.baton.testkit.PeerProcess;
import dev.baton.testkit.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * compat=redisson against the real Redisson (the version the build's {@code redisson-peer.version} names, from Maven
 * Central) in a JVM of its own on its own class path (src/test/peers/RedissonPeer.java), on one name: key {@code K} of
 * Baton and {@code getLock("K")} / {@code getFencedLock("K")} of Redisson exclude each other, wait for each other with
 * blocking locks, and wake each other at a release. Both sides hold for two minutes without a renewal (Redisson's
 * watchdog timeout, Baton's ttl), so a waiter that got the lock within the tests' ten seconds was woken, not let in by
 * an expiry.
 */
@Timeout(180)
class RedissonInteropTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(10);
  /** How long a holder of either side keeps the lock without a renewal: far beyond {@link #PROMPTLY}. */
  private static final Duration LONG_LEASE = Duration.ofMinutes(2);
  private static final Duration A_WHILE = Duration.ofMillis(500);
  private static final Duration COUNTING = Duration.ofSeconds(120);

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  private final List<LockClient> clients = new ArrayList<>();
  private String key;
  private PeerProcess redisson;

  @BeforeEach
  void startRedisson() throws Exception {
    key = "interop/" + UUID.randomUUID();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    String classPath = Files.readString(Path.of(System.getProperty("redisson.peer.classpath")), StandardCharsets.UTF_8)
        .strip();
    redisson = PeerProcess.start("Redisson", List.of(java.toString(), "-XX:TieredStopAtLevel=1", "-cp", classPath,
            System.getProperty("redisson.peer.source"), redis.uri(), key, Long.toString(LONG_LEASE.toMillis())),
        Set.of("HELD", "RELEASED", "COUNTED", "LOGGED"), Duration.ofSeconds(60));
  }

  @AfterEach
  void stop() {
    redisson.close();
    clients.forEach(LockClient::close);
  }

  @Test
  void aCounterUpdatedByBothSidesUnderTheLockIsExact() throws Exception {
    Path counter = Files.writeString(dir.resolve("counter"), "0");
    int times = 40;
    redisson.send("COUNT 2 " + times + " 2 " + counter);
    List<BackgroundCall<Void>> batons = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedLock lock = compatible().lock(key);
      batons.add(BackgroundCall.start("baton-counter-" + c, () -> {
        for (int i = 0; i < times; i++) {
          try (Lease lease = lock.acquire()) {
            long value = Long.parseLong(Files.readString(counter).strip());
            Thread.sleep(2); // the window in which a second holder would read the same value
            Files.writeString(counter, Long.toString(value + 1));
          }
        }
        return null;
      }));
    }
    for (BackgroundCall<Void> baton : batons) {
      baton.result(COUNTING);
    }
    redisson.await("COUNTED", COUNTING);

    assertThat(Long.parseLong(Files.readString(counter).strip())).as("updates by Baton and Redisson, none lost")
        .isEqualTo(4L * times);
    assertThat(redis.command("EXISTS", key)).as("the lock hash after the last release").isEqualTo(0L);
  }

  @Test
  void batonWaitsForRedissonsHolderAndIsWokenByItsRelease() throws Exception {
    redisson.send("HOLD");
    redisson.await("HELD", PROMPTLY);
    assertThat((Long) redis.command("PTTL", key)).as("Redisson's lease left").isGreaterThan(PROMPTLY.toMillis());
    DistributedLock lock = compatible().lock(key);
    assertThat(lock.tryAcquire()).as("a try while Redisson holds").isEmpty();
    BackgroundCall<Lease> waiter = BackgroundCall.start("baton-waiter", () -> lock.acquire());
    waiter.awaitBlocked();

    redisson.send("RELEASE");
    redisson.await("RELEASED", PROMPTLY);
    try (Lease lease = waiter.result(PROMPTLY)) {
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @Test
  void redissonWaitsForBatonsHolderAndIsWokenByItsRelease() throws Exception {
    Lease held = compatible().lock(key).acquire();
    assertThat(redis.command("HGET", key, held.ownerId())).as("Baton's holder, as Redisson writes its own")
        .isEqualTo("1");
    assertThat((Long) redis.command("PTTL", key)).as("Baton's lease left").isGreaterThan(PROMPTLY.toMillis());
    assertThat(redis.command("GET", "redisson_lock_token:{" + key + "}")).as("RFencedLock's counter")
        .isEqualTo(Long.toString(held.fencingToken()));
    redisson.send("HOLD");
    assertThat(redisson.next(A_WHILE)).as("Redisson's answer while Baton holds").isNull();

    held.close();
    redisson.await("HELD", PROMPTLY);
    assertThat(compatible().lock(key).tryAcquire()).as("a try while Redisson holds").isEmpty();
    redisson.send("RELEASE");
    redisson.await("RELEASED", PROMPTLY);
  }

  @Test
  void fencingTokensOfBothSidesAreOneSequenceGrowingInGrantOrder() throws Exception {
    Path log = Files.writeString(dir.resolve("tokens"), "");
    int times = 30;
    redisson.send("TOKENS 2 " + times + " " + log);
    List<BackgroundCall<Void>> batons = new ArrayList<>();
    for (int c = 0; c < 2; c++) {
      DistributedLock lock = compatible().lock(key);
      batons.add(BackgroundCall.start("baton-tokens-" + c, () -> {
        for (int i = 0; i < times; i++) {
          try (Lease lease = lock.acquire()) {
            Files.writeString(log, "baton " + lease.fencingToken() + "\n", StandardOpenOption.APPEND);
          }
        }
        return null;
      }));
    }
    for (BackgroundCall<Void> baton : batons) {
      baton.result(COUNTING);
    }
    redisson.await("LOGGED", COUNTING);

    List<String> grants = Files.readAllLines(log);
    assertThat(grants).as("every grant, appended under the lock").hasSize(4 * times);
    assertThat(grants).as("grants of each side").anyMatch(line -> line.startsWith("redisson "))
        .anyMatch(line -> line.startsWith("baton "));
    List<Long> tokens = grants.stream().map(line -> Long.parseLong(line.substring(line.indexOf(' ') + 1))).toList();
    for (int i = 1; i < tokens.size(); i++) {
      assertThat(tokens.get(i)).as("grant %d (%s) after grant %d (%s)", i, grants.get(i), i - 1, grants.get(i - 1))
          .isGreaterThan(tokens.get(i - 1));
    }
  }

  @Test
  void whatRedissonHasNoLayoutForIsRefusedAtOnce() throws Exception {
    LockClient client = compatible();
    assertThatThrownBy(() -> client.readWriteLock(key).readLock().acquire())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=redisson")
        .hasMessageContaining(key);
    assertThatThrownBy(() -> client.semaphore(key, 2).acquire())
        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("compat=redisson");
    assertThat(redis.command("EXISTS", key)).as("nothing written by a refused acquire").isEqualTo(0L);
    assertThat(client.readWriteLock(key).writeLock().tryAcquire()).as("a write lock is a lock").isPresent()
        .hasValueSatisfying(Lease::close);
    assertThat(client.lock(key, LockOptions.builder().fair(false).build()).tryAcquire()).as("a non-fair lock")
        .isPresent().hasValueSatisfying(Lease::close);
  }

  private LockClient compatible() {
    LockClient client = RedisLockClient.builder().uri(redis.uri()).compat(RedisLockClient.Compat.REDISSON)
        .defaultOptions(LockOptions.builder().ttl(LONG_LEASE).build()).connect();
    clients.add(client);
    return client;
  }
}
