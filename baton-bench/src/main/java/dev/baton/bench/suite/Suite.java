package dev.baton.bench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Runs every scenario for every implementation on one set of servers and writes the page: {@code bench/run} calls
 * {@code java -cp baton-bench/target/benchmarks.jar dev.baton.bench.suite.Suite docs bench/notes.md}.
 *
 * <p>Arguments: the docs directory ({@code docs}) and a file of notes to end the page with ({@code bench/notes.md},
 * left out if missing). System properties: those of {@link Settings#fromSystemProperties()}, and
 * {@code bench.command}, the command the page says wrote it.
 */
public final class Suite {
  private static final List<String> ACROSS_JVM_OPTIONS = List.of("-Xmx1g");
  private static final List<String> HEAP_JVM_OPTIONS = List.of("-Xmx2g", "-XX:+UseSerialGC");

  private Suite() {}

  /** Starts the servers, runs the suite, stops the servers and writes the page. */
  public static void main(String[] args) throws Exception {
    Path docs = Path.of(args.length > 0 ? args[0] : "docs");
    Path notes = Path.of(args.length > 1 ? args[1] : "bench/notes.md");
    Settings settings = Settings.fromSystemProperties();
    String loadBefore = loadAverage();
    long start = System.nanoTime();
    Map<Scenario, List<Row>> rows = new EnumMap<>(Scenario.class);
    List<HeapProbe.Heap> heaps;
    List<RemoteWaiter.Result> remoteWaiters = List.of();
    Results.RawDrift drift;
    Results.Environment environment;
    try (Servers servers = Servers.start()) {
      Runner runner = new Runner(servers.endpoints(), settings, Suite::progress);
      Map<Implementation, Row> rawBefore = runner.rawLimits();
      for (Scenario scenario : Scenario.values()) {
        if (!scenario.acrossProcesses() && settings.runs(scenario)) {
          rows.put(scenario, runner.inProcess(scenario));
        }
      }
      if (settings.runs(Scenario.LINGER)) {
        remoteWaiters = runner.remoteWaiters(RemoteWaiter.samples());
      }
      try (WorkerProcess worker = WorkerProcess.start(servers.endpoints(), ACROSS_JVM_OPTIONS)) {
        for (Scenario scenario : Scenario.values()) {
          if (scenario.acrossProcesses() && settings.runs(scenario)) {
            rows.put(scenario, runner.acrossProcesses(scenario, worker));
          }
        }
      }
      drift = new Results.RawDrift(rawBefore, runner.rawLimits());
      heaps = runner.heap(HEAP_JVM_OPTIONS);
      environment = environment(servers, settings, loadBefore, (System.nanoTime() - start) / 1_000_000_000);
    }
    Report.write(new Results(rows, heaps, drift, remoteWaiters, environment), docs, notes);
    progress("wrote " + docs.resolve("benchmarks.md"));
  }

  private static Results.Environment environment(Servers servers, Settings settings, String loadBefore, long seconds)
      throws IOException, InterruptedException, SQLException {
    String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
    String machine = Runtime.getRuntime().availableProcessors() + " cores (" + cpuModel() + "), "
        + System.getProperty("os.name") + " " + System.getProperty("os.version")
        + "; load average (1 min) " + loadBefore + " before the run";
    String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    List<String> serverVersions = List.of("redis-server " + servers.redisVersion(),
        "ZooKeeper " + servers.zooKeeperVersion().replaceAll(",.*", "") + " (in the benchmark's JVM)",
        "etcd " + servers.etcdVersion(), "PostgreSQL " + servers.postgresVersion(),
        "MariaDB " + servers.mariaDbVersion(),
        "a Redis Cluster of six redis-server (3 masters, 3 replicas), where the keys of scenario "
            + (Scenario.REDIS_CLUSTER_SPREAD.ordinal() + 1) + " fall " + clusterSpread(servers));
    List<String> libraries = Versions.libraries();
    return new Results.Environment(date, System.getProperty("bench.command", "bench/run"), machine, jdk, settings,
        serverVersions, libraries, seconds);
  }

  /** How the cluster scenario's keys spread over the masters, e.g. {@code 3/3/2 (keys 0 4 5 / 1 2 6 / 3 7)}. */
  private static String clusterSpread(Servers servers) {
    List<String> keys = Scenario.REDIS_CLUSTER_SPREAD.keys();
    Collection<List<String>> byMaster = servers.keysByClusterMaster(keys).values();
    return byMaster.stream().map(ofMaster -> String.valueOf(ofMaster.size())).collect(Collectors.joining("/"))
        + " over the masters (keys " + byMaster.stream()
            .map(ofMaster -> ofMaster.stream().map(key -> String.valueOf(keys.indexOf(key)))
                .collect(Collectors.joining(" ")))
            .collect(Collectors.joining(" / ")) + ")";
  }

  private static String cpuModel() throws IOException {
    Path cpuInfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuInfo)) {
      return "model unknown";
    }
    return Files.readAllLines(cpuInfo).stream()
        .filter(line -> line.startsWith("model name"))
        .map(line -> line.substring(line.indexOf(':') + 1).strip())
        .findFirst()
        .orElse("model unknown");
  }

  /** The one-minute load average of the machine, from {@code /proc/loadavg}. */
  private static String loadAverage() throws IOException {
    Path loadAvg = Path.of("/proc/loadavg");
    return Files.isReadable(loadAvg) ? Files.readString(loadAvg).split(" ")[0] : "unknown";
  }

  private static void progress(String message) {
    System.out.println(ZonedDateTime.now(ZoneOffset.UTC).toLocalTime().withNano(0) + " " + message);
  }
}
