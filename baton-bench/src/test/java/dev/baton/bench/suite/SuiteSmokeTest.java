package dev.baton.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every scenario of the suite for every implementation, for a few cycles, on real servers, and writes the page:
 * so that a broken harness fails the build, not the next benchmark run. The numbers mean nothing here; the heap is
 * measured in this JVM, beside the ZooKeeper server, except for one implementation through the worker JVM.
 */
class SuiteSmokeTest {
  private static final Settings TINY = new Settings(Duration.ZERO, 1, Duration.ofMillis(100), 10, 3);
  private static final Duration ANSWER = Duration.ofSeconds(60);

  private static Servers servers;

  @TempDir
  Path docs;

  @BeforeAll
  static void startServers() {
    servers = Servers.start();
  }

  @AfterAll
  static void stopServers() {
    servers.close();
  }

  @Test
  void theClusterScenarioSpreadsItsKeysOverTheThreeMasters() {
    assertThat(servers.keysByClusterMaster(Scenario.REDIS_CLUSTER_SPREAD.keys()).values())
        .extracting(List::size).containsExactlyInAnyOrder(3, 3, 2);
  }

  @Test
  void everyScenarioRunsForEveryImplementationAndThePageIsWritten() throws Exception {
    Runner runner = new Runner(servers.endpoints(), TINY, message -> { });
    Map<Scenario, List<Row>> rows = new EnumMap<>(Scenario.class);
    for (Scenario scenario : Scenario.values()) {
      if (!scenario.acrossProcesses()) {
        rows.put(scenario, runner.inProcess(scenario));
      }
    }
    List<RemoteWaiter.Result> remoteWaiters = runner.remoteWaiters(2);
    List<HeapProbe.Heap> heaps = new ArrayList<>();
    try (WorkerProcess worker = WorkerProcess.start(servers.endpoints(), List.of())) {
      for (Scenario scenario : Scenario.values()) {
        if (scenario.acrossProcesses()) {
          rows.put(scenario, runner.acrossProcesses(scenario, worker));
        }
      }
      String[] heap = worker.call("HEAP BATON_REDIS 10 3", "HEAP", ANSWER);
      assertThat(heap).hasSize(4);
    }
    for (Implementation implementation : Scenario.heapImplementations()) {
      heaps.add(HeapProbe.measure(implementation, servers.endpoints(), TINY.heldLeases(), TINY.waiters()));
    }

    for (Scenario scenario : Scenario.values()) {
      assertThat(rows.get(scenario)).extracting(Row::implementation)
          .containsExactlyElementsOf(scenario.implementations());
      assertThat(rows.get(scenario)).allSatisfy(row -> assertThat(row.rate()).isPositive());
    }
    for (Scenario scenario : List.of(Scenario.ACROSS_PROCESSES, Scenario.READ_ACROSS_PROCESSES)) {
      assertThat(rows.get(scenario)).allSatisfy(row -> assertThat(row.workerShare()).isBetween(0.0, 1.0));
    }
    assertThat(remoteWaiters).extracting(RemoteWaiter.Result::implementation)
        .containsExactlyElementsOf(Scenario.LINGER.implementations().stream().filter(Implementation::lingers).toList());
    assertThat(remoteWaiters).allSatisfy(result -> {
      assertThat(result.failure()).isNull();
      assertThat(result.served().size() + result.notServed()).isEqualTo(2);
      assertThat(result.served().size()).isPositive();
    });
    Map<Implementation, Row> rawLimits = new EnumMap<>(Implementation.class);
    rows.get(Scenario.UNCONTENDED).stream().filter(row -> row.implementation().role() == Implementation.Role.RAW)
        .forEach(row -> rawLimits.put(row.implementation(), row));
    Results results = new Results(rows, heaps, new Results.RawDrift(rawLimits, Map.of()), remoteWaiters,
        new Results.Environment("today", "the smoke test", "this machine",
        "this JDK", TINY, List.of("servers"), List.of("libraries"), 1));
    Report.write(results, docs, docs.resolve("no-notes.md"));
    assertThat(docs.resolve("benchmarks.md")).content().contains("## 8. Write lock uncontended", "x Baton mutex",
        "## 9. Redis Cluster spread", "## 10. Multi-lock", "Redisson RedissonMultiLock",
        "Curator InterProcessMultiLock", "Baton lock() per key, in key order", "Redisson RLock (cluster mode)", "raw: 2 x EVALSHA (Lettuce cluster)",
        "Baton, min-replicas=1",
        "## 11. Lingering lock", "Baton with linger(5s) (lease)",
        "| store | implementation | asked | got it | median asked → got (ms) | worst (ms) |",
        "## 12. The raw limit of each store", "1 thread alone, before the scenarios", "## 13. Memory",
        "Curator InterProcessMutex", "jetcd Lock 0.7.x (a lease per thread)",
        "jetcd Lock 0.8.x (a lease per thread, JVM of its own)",
        "Redisson RPermitExpirableSemaphore", "Curator InterProcessReadWriteLock read lock", "Spring Integration JdbcLockRegistry",
        "ShedLock JdbcTemplateLockProvider (try-lock only)", "raw: INSERT + DELETE");
    for (Scenario scenario : Scenario.values()) {
      assertThat(Files.size(docs.resolve("benchmarks").resolve(scenario.id() + ".png"))).isPositive();
    }
    for (String chart : List.of("raw-limit", "heap")) {
      assertThat(Files.size(docs.resolve("benchmarks").resolve(chart + ".png"))).isPositive();
    }
  }
}
