package dev.baton.bench.suite;

import dev.baton.etcd.EtcdLockClient;
import dev.baton.servers.EtcdServer;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.CompactOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where an uncontended etcd lock cycle's time goes: bench/etcd-cycle runs it. On an etcd of its own (the test kit's),
 * it measures, round by round, the raw put + delete, Baton's requests sent by hand with jetcd's KV client (released
 * by a compared delete, by a plain delete, and with a new name per acquisition), jetcd's {@code Lock} (0.7, the line
 * Baton uses, in this JVM; 0.8 in a JVM of its own) and Baton's {@code Lock} view; and for each, besides the cycles
 * per second, the client's CPU time per cycle (this JVM's, or the peer JVM's; its JIT compiler threads' apart), etcd's
 * CPU time per cycle, etcd's WAL fsyncs per cycle and the gRPC messages etcd received per cycle. The {@code stub-*}
 * contenders send their cycles on gRPC's stub without jetcd ({@link StubEtcdContender}): what each way to acquire costs
 * etcd, down to a transaction of a put alone.
 *
 * <p>{@code java -cp benchmarks.jar dev.baton.bench.suite.EtcdCycles MODE [CONTENDER...]} where MODE is
 *
 * <ul>
 *   <li>{@code interleaved}: every contender (or those named) in this JVM, taking turns, one timed round each, in an
 *       order that rotates every round;
 *   <li>{@code solo}: the one contender named, alone in this JVM (bench/etcd-cycle runs one such JVM per contender, in
 *       turn: the way a user's application runs one lock library);
 *   <li>{@code growth}: hand-sent cycles with one name per lease and key against a new name per acquisition, measured
 *       after growing numbers of cycles without compaction, then after a compaction: what reusing names saves.
 * </ul>
 *
 * <p>Settings (system properties): {@code cycles.threads} (1; each thread on its own key), {@code cycles.rounds} (4),
 * {@code cycles.roundMillis} (5000), {@code cycles.warmupMillis} (5000), {@code cycles.growth} (20000,40000: the
 * checkpoints of growth mode).
 */
public final class EtcdCycles {
  /** The contenders, by the names the command line uses, in the order of the first round. */
  private static final List<String> ALL = List.of("raw", "hand-compared", "hand-plain", "hand-unique", "jetcd-0.7",
      "jetcd-0.8", "baton", "stub-put", "stub-txn-put", "stub-put-read", "stub-compare-first");
  private static final long CLOCK_TICK_NANOS = 10_000_000; // /proc counts CPU time in USER_HZ ticks: 100 a second

  private final EtcdServer etcd;
  private final int threads = Integer.getInteger("cycles.threads", 1);

  private EtcdCycles(EtcdServer etcd) {
    this.etcd = etcd;
  }

  /** Runs the MODE given as first argument; see the class comment. */
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("Give a mode: interleaved [CONTENDER...], solo CONTENDER or growth; "
          + "contenders: " + String.join(", ", ALL));
    }
    try (EtcdServer etcd = new EtcdServer()) {
      etcd.start();
      EtcdCycles cycles = new EtcdCycles(etcd);
      List<String> named = Arrays.asList(args).subList(1, args.length);
      switch (args[0]) {
        case "interleaved" -> cycles.rounds(named.isEmpty() ? ALL : named);
        case "solo" -> {
          if (named.size() != 1) {
            throw new IllegalArgumentException("solo takes one contender, not " + named + ": one of " + ALL);
          }
          cycles.rounds(named);
        }
        case "growth" -> cycles.growth();
        default -> throw new IllegalArgumentException("Unknown mode '" + args[0] + "': interleaved, solo or growth");
      }
    }
    System.exit(0); // jetcd's and the peers' non-daemon threads
  }

  private void rounds(List<String> names) throws Exception {
    int rounds = Integer.getInteger("cycles.rounds", 4);
    Duration round = Duration.ofMillis(Integer.getInteger("cycles.roundMillis", 5000));
    Duration warmup = Duration.ofMillis(Integer.getInteger("cycles.warmupMillis", 5000));
    Map<String, Contender> contenders = new LinkedHashMap<>();
    Map<String, List<Measured>> measured = new LinkedHashMap<>();
    try {
      for (String name : names) {
        contenders.put(name, open(name));
        measured.put(name, new ArrayList<>());
      }
      for (Map.Entry<String, Contender> contender : contenders.entrySet()) {
        run(contender.getValue(), warmup);
      }
      System.out.printf(Locale.ROOT, "etcd %s, %d thread(s), each on its own key; %d rounds of %d ms after %d ms of "
          + "warm-up each%n", etcd.endpoint(), threads, rounds, round.toMillis(), warmup.toMillis());
      System.out.printf(Locale.ROOT, "%-5s %-14s %10s %12s %10s %12s %10s %10s%n", "round", "contender", "cycles/s",
          "client µs/c", "jit µs/c", "etcd µs/c", "fsyncs/c", "msgs/c");
      for (int r = 0; r < rounds; r++) {
        List<String> order = new ArrayList<>(contenders.keySet());
        Collections.rotate(order, -r);
        for (String name : order) {
          Measured m = measure(contenders.get(name), round);
          measured.get(name).add(m);
          System.out.printf(Locale.ROOT, "%-5d %-14s %10.0f %12.1f %10.1f %12.1f %10.2f %10.2f%n", r + 1, name,
              m.rate(), m.clientMicros(), m.jitMicros(), m.etcdMicros(), m.fsyncs(), m.requests());
        }
      }
    } finally {
      for (Contender contender : contenders.values()) {
        contender.close();
      }
    }
    summary(measured);
  }

  /** Medians over the rounds, and each contender's rate against the raw cycle's of the same round where there is one. */
  private static void summary(Map<String, List<Measured>> measured) {
    System.out.printf(Locale.ROOT, "%nmedians over the rounds%n%-14s %18s %12s %10s %12s %10s %10s %16s%n",
        "contender", "cycles/s (min-max)", "client µs/c", "jit µs/c", "etcd µs/c", "fsyncs/c", "msgs/c",
        "x raw (min-max)");
    List<Measured> raw = measured.get("raw");
    for (Map.Entry<String, List<Measured>> entry : measured.entrySet()) {
      List<Measured> rounds = entry.getValue();
      double[] rates = rounds.stream().mapToDouble(Measured::rate).sorted().toArray();
      String ratio = "";
      if (raw != null) {
        double[] ratios = new double[rounds.size()];
        for (int i = 0; i < ratios.length; i++) {
          ratios[i] = rounds.get(i).rate() / raw.get(i).rate();
        }
        Arrays.sort(ratios);
        ratio = String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", median(ratios), ratios[0], ratios[ratios.length - 1]);
      }
      System.out.printf(Locale.ROOT, "%-14s %18s %12.1f %10.1f %12.1f %10.2f %10.2f %16s%n", entry.getKey(),
          String.format(Locale.ROOT, "%.0f (%.0f-%.0f)", median(rates), rates[0], rates[rates.length - 1]),
          median(rounds.stream().mapToDouble(Measured::clientMicros).sorted().toArray()),
          median(rounds.stream().mapToDouble(Measured::jitMicros).sorted().toArray()),
          median(rounds.stream().mapToDouble(Measured::etcdMicros).sorted().toArray()),
          median(rounds.stream().mapToDouble(Measured::fsyncs).sorted().toArray()),
          median(rounds.stream().mapToDouble(Measured::requests).sorted().toArray()), ratio);
    }
  }

  /**
   * Hand-sent cycles, one name per lease and key against a new name per acquisition: each measured fresh, after
   * growing numbers of cycles, and after a compaction to the current revision.
   */
  private void growth() throws Exception {
    Duration probe = Duration.ofMillis(Integer.getInteger("cycles.roundMillis", 5000));
    long[] checkpoints = Arrays.stream(System.getProperty("cycles.growth", "20000,40000").split(","))
        .mapToLong(Long::parseLong).toArray();
    System.out.printf(Locale.ROOT, "%-14s %10s %10s %10s %12s %12s%n", "names", "after", "revision", "db KiB",
        "cycles/s", "etcd µs/c");
    for (HandSentEtcdContender.Release release : List.of(HandSentEtcdContender.Release.PLAIN_DELETE,
        HandSentEtcdContender.Release.UNIQUE_NAMES)) {
      String label = release == HandSentEtcdContender.Release.UNIQUE_NAMES ? "unique" : "reused";
      try (HandSentEtcdContender contender = new HandSentEtcdContender(etcd.endpoint(), release,
          "/growth-" + label + "/")) {
        long done = 0;
        for (long checkpoint : checkpoints) {
          done += cycles(contender, checkpoint - done);
          Measured m = measure(contender, probe);
          done += m.cycles();
          System.out.printf(Locale.ROOT, "%-14s %10d %10d %10d %12.0f %12.1f%n", label, done, revision(),
              metric("etcd_mvcc_db_total_size_in_bytes") / 1024, m.rate(), m.etcdMicros());
        }
        compact();
        Measured m = measure(contender, probe);
        System.out.printf(Locale.ROOT, "%-14s %10s %10d %10d %12.0f %12.1f%n", label, "compacted", revision(),
            metric("etcd_mvcc_db_total_size_in_bytes") / 1024, m.rate(), m.etcdMicros());
      }
    }
  }

  private Contender open(String name) throws Exception {
    String endpoint = etcd.endpoint();
    return switch (name) {
      case "raw" -> new RawEtcdContender(endpoint);
      case "hand-compared" -> new HandSentEtcdContender(endpoint, HandSentEtcdContender.Release.COMPARED_DELETE,
          "/hand-compared/");
      case "hand-plain" -> new HandSentEtcdContender(endpoint, HandSentEtcdContender.Release.PLAIN_DELETE,
          "/hand-plain/");
      case "hand-unique" -> new HandSentEtcdContender(endpoint, HandSentEtcdContender.Release.UNIQUE_NAMES,
          "/hand-unique/");
      case "jetcd-0.7" -> new JetcdLockContender(endpoint);
      case "jetcd-0.8" -> new JetcdCurrentLockContender(endpoint);
      case "baton" -> new BatonContender(EtcdLockClient.connect(endpoint), true);
      case "stub-put" -> new StubEtcdContender(endpoint, StubEtcdContender.Acquire.PUT, "/stub-put/");
      case "stub-txn-put" -> new StubEtcdContender(endpoint, StubEtcdContender.Acquire.TXN_PUT, "/stub-txn-put/");
      case "stub-put-read" -> new StubEtcdContender(endpoint, StubEtcdContender.Acquire.PUT_AND_READ, "/stub-put-read/");
      case "stub-compare-first" -> new StubEtcdContender(endpoint, StubEtcdContender.Acquire.COMPARE_FIRST,
          "/stub-compare-first/");
      default -> throw new IllegalArgumentException("Unknown contender '" + name + "': one of " + ALL);
    };
  }

  private List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      keys.add("cycle-" + i);
    }
    return keys;
  }

  private Load.Result run(Contender contender, Duration duration) throws Exception {
    return Load.run(contender, Hold.LOCK, keys(), duration);
  }

  /** Runs about {@code count} cycles (one thread per key), in runs of a second; returns how many ran. */
  private long cycles(Contender contender, long count) throws Exception {
    long done = 0;
    while (done < count) {
      done += run(contender, Duration.ofSeconds(1)).cycles();
    }
    return done;
  }

  private Measured measure(Contender contender, Duration duration) throws Exception {
    long peer = contender instanceof JetcdCurrentLockContender elsewhere ? elsewhere.pid() : -1;
    long client = peer < 0 ? ProcessHandle.current().pid() : peer;
    long jitBefore = compilerNanos(client);
    long clientBefore = peer < 0 ? ownCpuNanos() : cpuNanos(peer);
    long etcdBefore = cpuNanos(etcd.pid());
    long fsyncsBefore = metric("etcd_disk_wal_fsync_duration_seconds_count");
    long requestsBefore = metric("grpc_server_msg_received_total");
    Load.Result result = run(contender, duration);
    long requests = metric("grpc_server_msg_received_total") - requestsBefore;
    long fsyncs = metric("etcd_disk_wal_fsync_duration_seconds_count") - fsyncsBefore;
    long etcdNanos = cpuNanos(etcd.pid()) - etcdBefore;
    long clientNanos = (peer < 0 ? ownCpuNanos() : cpuNanos(peer)) - clientBefore;
    long jitNanos = compilerNanos(client) - jitBefore;
    return new Measured(result.cycles(), result.elapsedNanos(), clientNanos - jitNanos, jitNanos, etcdNanos, fsyncs,
        requests);
  }

  private static long ownCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** The user and system CPU time of process {@code pid} so far, from {@code /proc} (ticks of 10 ms). */
  private static long cpuNanos(long pid) {
    return cpuNanos(Path.of("/proc", Long.toString(pid), "stat"));
  }

  private static long cpuNanos(Path stat) {
    try {
      String text = Files.readString(stat);
      String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * CLOCK_TICK_NANOS; // utime, stime
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the CPU time in " + stat, e);
    }
  }

  /**
   * The CPU time so far of the JIT compiler threads of JVM {@code pid} that are alive now (HotSpot's C1 and C2
   * threads), which a client's CPU time per cycle should not count while the JIT still compiles.
   */
  private static long compilerNanos(long pid) {
    long nanos = 0;
    try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks.toList()) {
        try {
          if (Files.readString(task.resolve("comm")).matches("C[12] CompilerThre.*\\s*")) {
            nanos += cpuNanos(task.resolve("stat"));
          }
        } catch (IOException | UncheckedIOException gone) {
          // The thread ended meanwhile.
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the threads of process " + pid, e);
    }
    return nanos;
  }

  private long revision() throws Exception {
    try (Client client = Client.builder().endpoints(etcd.endpoint()).build()) {
      return client.getKVClient().get(ByteSequence.from("/", StandardCharsets.UTF_8)).get().getHeader().getRevision();
    }
  }

  /** Compacts etcd's history up to now, which drops the deleted names from its index. */
  private void compact() throws Exception {
    long revision = revision();
    try (Client client = Client.builder().endpoints(etcd.endpoint()).build()) {
      client.getKVClient().compact(revision, CompactOption.builder().withCompactPhysical(true).build()).get();
    }
  }

  /** The sum of the samples of {@code metric} on etcd's {@code /metrics} page. */
  private long metric(String metric) {
    try {
      HttpURLConnection connection = (HttpURLConnection) URI.create(etcd.endpoint() + "/metrics").toURL()
          .openConnection();
      try (InputStream in = connection.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
            .filter(line -> line.startsWith(metric + " ") || line.startsWith(metric + "{"))
            .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
            .sum();
      } finally {
        connection.disconnect();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the metrics of etcd at " + etcd.endpoint(), e);
    }
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** One timed run of one contender: cycles, wall time, and the CPU time of the client's JVM and of etcd. */
  private record Measured(long cycles, long nanos, long clientNanos, long jitNanos, long etcdNanos, long fsyncCount,
      long requestCount) {
    double rate() {
      return cycles * 1e9 / nanos;
    }

    double clientMicros() {
      return clientNanos / 1e3 / cycles;
    }

    double jitMicros() {
      return jitNanos / 1e3 / cycles;
    }

    double etcdMicros() {
      return etcdNanos / 1e3 / cycles;
    }

    double fsyncs() {
      return (double) fsyncCount / cycles;
    }

    /** The gRPC messages etcd received per cycle: requests, and messages on streams (keep-alives, watches). */
    double requests() {
      return (double) requestCount / cycles;
    }
  }
}
