package consumer.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockClient;
import dev.baton.LockStatus;
import dev.baton.redis.RedisLockClient;
import dev.baton.servers.RedisServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application as it is deployed: instances in JVMs of their own, on one Redis this test starts, configured by
 * command-line properties as an operator would.
 */
class NightlyReportTest {
  private static final RedisServer REDIS = new RedisServer();
  private static final String KEY = "nightly-report";
  private static final int TICKS = 20;
  private static final Duration RUNS_TIMEOUT = Duration.ofSeconds(60);
  private static final String FAILED_TO_START = "APPLICATION FAILED TO START";

  @TempDir
  Path directory;

  @BeforeAll
  static void startRedis() {
    REDIS.start();
  }

  @AfterAll
  static void stopRedis() {
    REDIS.stop();
  }

  @Test
  void twoInstancesNeverRunTheReportAtOnce() throws Exception {
    Path runs = directory.resolve("runs.txt");
    try (Instance first = Instance.start("two-instances-first", runs, "--baton.backend=" + REDIS.uri());
        Instance second = Instance.start("two-instances-second", runs, "--baton.backend=" + REDIS.uri())) {
      first.awaitStarted();
      second.awaitStarted();
      Instant bothUp = Instant.now();
      await().atMost(RUNS_TIMEOUT)
          .until(() -> Run.read(runs).stream().filter(run -> run.startedAfter(bothUp)).count() >= TICKS);
      first.stopCleanly();
      second.stopCleanly();
    }
    List<Run> all = Run.read(runs);
    System.out.println("The report's runs by instance: " + all.stream()
        .collect(Collectors.groupingBy(Run::instance, TreeMap::new, Collectors.counting())));
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.get(i).start()).as("run %s began after run %s ended", all.get(i), all.get(i - 1))
          .isAfterOrEqualTo(all.get(i - 1).end());
    }
  }

  @Test
  void springDataRedisPropertiesAloneChooseTheStore() throws Exception {
    try (Instance instance = Instance.start("spring-data-redis", directory.resolve("runs.txt"),
            "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + REDIS.port());
        LockClient observer = RedisLockClient.connect(REDIS.uri())) {
      instance.awaitStarted();
      await().atMost(RUNS_TIMEOUT).untilAsserted(() -> assertThat(observer.list(KEY, 10))
          .as("the locks on the Redis of spring.data.redis.*").extracting(LockStatus::key).contains(KEY));
      instance.stopCleanly();
    }
  }

  @Test
  void theLocksEndpointNamesTheHeldLock() throws Exception {
    try (Instance instance = Instance.start("locks-endpoint", directory.resolve("runs.txt"),
        "--baton.backend=" + REDIS.uri())) {
      instance.awaitStarted();
      assertThat(instance.get("/actuator/locks")).as("GET /actuator/locks").startsWith("200 ");
      await().atMost(RUNS_TIMEOUT).pollInterval(Duration.ofMillis(20))
          .untilAsserted(() -> assertThat(instance.get("/actuator/locks")).as("GET /actuator/locks").contains(KEY));
      instance.stopCleanly();
    }
  }

  @Test
  void theMemoryStoreRunsTheReportWithoutAServer() throws Exception {
    Path runs = directory.resolve("runs.txt");
    try (Instance instance = Instance.start("memory", runs, "--baton.backend=memory://")) {
      instance.awaitStarted();
      await().atMost(RUNS_TIMEOUT).until(() -> Run.read(runs).size() >= 3);
      instance.stopCleanly();
    }
  }

  @Test
  void anUnreachableStoreFailsTheStart() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    String address = "127.0.0.1:" + closedPort;
    try (Instance instance = Instance.start("unreachable", directory.resolve("runs.txt"),
        "--baton.backend=redis://" + address, "--baton.connect-timeout=5s")) {
      assertThat(instance.awaitFailedStart()).contains(FAILED_TO_START).contains(address)
          .doesNotContainPattern("(?m)^\\s+at ");
    }
  }

  /**
   * With spring-boot-starter-data-redis, Spring Boot's Redis connection is localhost:6379 unless told otherwise: an
   * application without a store here is one that leaves out Boot's Redis auto-configuration and sets no baton.backend.
   */
  @Test
  void noStoreFailsTheStart() throws Exception {
    try (Instance instance = Instance.start("no-store", directory.resolve("runs.txt"),
        "--spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration")) {
      assertThat(instance.awaitFailedStart()).contains(FAILED_TO_START).contains("baton.backend")
          .doesNotContainPattern("(?m)^\\s+at ");
    }
  }
}
