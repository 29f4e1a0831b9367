package dev.baton.bench.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Writes {@code benchmarks.md} and its charts (under {@code benchmarks/} beside it) from one run's results. */
final class Report {
  private static final String CHARTS = "benchmarks";
  private static final String ROUNDS = ", median of the rounds (whiskers: min-max)";
  /** The section numbers after the timed scenarios'. */
  private static final int RAW_LIMITS = Scenario.values().length + 1;
  private static final int MEMORY = RAW_LIMITS + 1;

  private final Results results;
  private final StringBuilder page = new StringBuilder();

  private Report(Results results) {
    this.results = results;
  }

  /** Writes the page {@code docsDir/benchmarks.md}, the charts, and the notes of {@code notes} if that file exists. */
  static void write(Results results, Path docsDir, Path notes) throws IOException {
    Files.createDirectories(docsDir.resolve(CHARTS));
    Report report = new Report(results);
    report.header();
    report.targets();
    report.timed(docsDir, Scenario.UNCONTENDED, Versus.RAW, Versus.PEER);
    report.timed(docsDir, Scenario.SPREAD, Versus.RAW, Versus.PEER);
    report.timed(docsDir, Scenario.HOT_KEY, Versus.PEER);
    report.timed(docsDir, Scenario.ACROSS_PROCESSES, Versus.PEER);
    report.timed(docsDir, Scenario.READ_HOT_KEY, Versus.PEER);
    report.timed(docsDir, Scenario.READ_ACROSS_PROCESSES, Versus.PEER);
    report.timed(docsDir, Scenario.SEMAPHORE, Versus.PEER);
    report.timed(docsDir, Scenario.WRITE_UNCONTENDED, Versus.BATON_MUTEX);
    report.timed(docsDir, Scenario.REDIS_CLUSTER_SPREAD, Versus.RAW, Versus.PEER);
    report.timed(docsDir, Scenario.MULTI_KEY, Versus.PEER);
    report.timed(docsDir, Scenario.LINGER, Versus.RAW);
    report.remoteWaiters();
    report.rawLimits(docsDir);
    report.heap(docsDir);
    if (Files.exists(notes)) {
      report.page.append(Files.readString(notes, StandardCharsets.UTF_8).strip()).append("\n");
    }
    Files.writeString(docsDir.resolve("benchmarks.md"), report.page, StandardCharsets.UTF_8);
  }

  private void header() {
    Results.Environment env = results.environment();
    Settings settings = env.settings();
    line("# Benchmarks");
    line("");
    line("Baton's mutex, read-write lock and semaphore against Redisson, Curator, jetcd's `Lock`, Spring "
        + "Integration's `JdbcLockRegistry`, ShedLock's JDBC provider (on PostgreSQL and MariaDB) and each store's raw limit: every implementation on the same servers in the same run. Written by `" + env.command()
        + "` on " + env.date() + " (the run took " + env.seconds() / 60 + " min " + env.seconds() % 60 + " s).");
    line("");
    line("- Machine: " + env.machine() + "; " + env.jdk() + ".");
    line("- Servers, started by the test kit on loopback: " + String.join(", ", env.servers()) + ".");
    line("- Libraries: " + String.join(", ", env.libraries()) + ".");
    line(String.format(Locale.ROOT, "- Method: one JVM runs every implementation, each with a fresh client: "
        + "a warm-up of at least %s s, longer (in steps of 1 s, up to %s s) while the JIT of the JVM that runs the "
        + "implementation's threads still compiled for more than 1%% of the last step (on a store that answers a few "
        + "hundred cycles a second a client's code is still being compiled after tens of seconds; across processes "
        + "the warm-up is the shortest), then %d timed rounds of %s s. In one process the implementations of a store "
        + "are open together and take turns round by round, the order rotating each round, so that none is always "
        + "measured first; across processes they run one after the other. A rate is the median of the rounds (their "
        + "min-max beside it); the percentiles are of every cycle of the rounds. A thread locks (or takes a permit), "
        + "unlocks at once and starts again. Ratios divide medians. The second JVM of the cross-process scenarios and "
        + "of the heap scenario has the same class path.", Targets.factor(settings.warmup().toMillis() / 1000.0),
        Targets.factor(settings.warmupLimit().toMillis() / 1000.0),
        settings.rounds(), Targets.factor(settings.round().toMillis() / 1000.0)));
    if (!settings.stores().containsAll(EnumSet.allOf(Store.class))) {
      line("- Only the implementations on " + settings.stores().stream().map(Store::label)
          .collect(Collectors.joining(", ")) + " ran (`bench.stores`): a partial run, whose other rows and targets"
          + " are empty.");
    }
    line("- PostgreSQL: Baton (its own pool from a URL) against Spring Integration's `JdbcLockRegistry` on its "
        + "`DefaultLockRepository` and its own DDL (defaults: a waiter tries again every 100 ms) and ShedLock's "
        + "`JdbcTemplateLockProvider` (`usingDbTime()`), both on HikariCP pools with their defaults. ShedLock's is a "
        + "try-lock only, it cannot wait: it runs where each thread has its own key (scenarios "
        + number(Scenario.UNCONTENDED) + " and " + number(Scenario.SPREAD) + "), not on the hot key. The raw limit "
        + "is an `INSERT` with an expiry and a `DELETE`, each one statement in auto-commit mode.");
    line("- MariaDB: the same three beside Baton's `MySqlLockClient` (its own pool from a `mariadb://` URL), all on "
        + "MariaDB Connector/J, on one MariaDB server (Debian's, as the test kit starts it: no durable commits): "
        + "`JdbcLockRegistry` with Spring Integration's DDL for MySQL, ShedLock with the table its documentation "
        + "gives for MySQL and `usingDbTime()`, the raw limit on an InnoDB table with `UTC_TIMESTAMP(6)` expiries.");
    line("- jetcd's `Lock` is keyed by a lease, and two threads sharing a lease both \"acquire\" it: each thread "
        + "grants its own lease (one hour, no keep-alive needed within the run).");
    line("- jetcd's `Lock` runs on two jetcd lines (the libraries above give both versions): 0.7.x, the one Baton "
        + "uses, in this JVM, and the current 0.8.x in a JVM of its own on jetcd's class path alone (its Vert.x 5 and "
        + "Netty 4.2 cannot share this one), whose threads run the same loop and send back their counts and times; "
        + "its heap is not measured. The targets and the \"x peer\" column are against 0.7.x: baton-etcd depends on "
        + "it, so it is the jetcd a Baton user gets by default.");
    line("- Scenarios " + number(Scenario.READ_HOT_KEY) + " to " + number(Scenario.WRITE_UNCONTENDED) + " measure "
        + "Baton's read-write lock and semaphore (" + Hold.PERMITS + " permits) against the peers' own: the read lock "
        + "of Redisson's `RReadWriteLock` and of Curator's `InterProcessReadWriteLock`, Redisson's "
        + "`RPermitExpirableSemaphore` (given its permits once with `trySetPermits`; a permit has an id, as a Baton "
        + "lease does) and Curator's `InterProcessSemaphoreV2`. jetcd has neither, so etcd has Baton alone there. "
        + "In scenario " + number(Scenario.WRITE_UNCONTENDED) + ", \"x Baton mutex\" is the write lock's rate over "
        + "that of Baton's mutex on the same store in scenario " + number(Scenario.UNCONTENDED) + ".");
    line("- Redis Cluster, scenario " + number(Scenario.REDIS_CLUSTER_SPREAD) + ": six `redis-server` in cluster mode "
        + "on the same machine, three masters with an asynchronous replica each; each of the eight threads has its own "
        + "key, and the keys hash 3, 3 and 2 over the masters (the servers above say which). Baton on a "
        + "`redis-cluster://` URI; Redisson's `RLock` with `useClusterServers()` and the settings it has on one "
        + "server: on a cluster with replicas it sends each lock and unlock script in one batch with a `WAIT` for the "
        + "master's replicas (`checkLockSyncedSlaves` only decides whether an unacknowledged `WAIT` fails), where "
        + "Baton does not wait for replicas; the raw cycle of one server through a Lettuce cluster connection.");
    line("- Multi-lock, scenario " + number(Scenario.MULTI_KEY) + ": each cycle of each of the eight threads holds "
        + KeySet.PER_HOLD + " random keys of " + KeySet.KEYS + " at once, a new set each cycle, so that the sets "
        + "overlap: Baton's `multiLock(keys)` lease, Redisson's `RedissonMultiLock` over the keys' `RLock`s, "
        + "Curator's `InterProcessMultiLock` over their paths, and the same work done with Baton's single locks, "
        + "`lock(key)` for each key one after the other in key order (released last first). An acquisition is one "
        + "whole set.");
    line("- Lingering lock, scenario " + number(Scenario.LINGER) + ": one thread's lock/unlock loop on one key with "
        + "`LockOptions.linger(5s)`, beside Baton's lock without it and the store's raw cycle: the first acquire goes "
        + "to the store, the next ones take the lingering lock back in the client, with its token, without a round "
        + "trip. No other client asks for the key in the timed rounds; the table below the chart gives how soon a "
        + "second client of the same store, asking while the loop runs, gets the lock.");
    line("");
  }

  private void targets() {
    line("## Targets");
    line("");
    line("| target | measured | |");
    line("|---|---|---|");
    for (Targets.Target target : Targets.check(results)) {
      line("| " + target.asked() + " | " + target.measured() + " | " + (target.met() ? "met" : "**missed**") + " |");
    }
    line("");
  }

  /**
   * The section of a timed scenario: its table, with a column per ratio of {@code versus}, and its chart. On one key
   * the unit is acquisitions and the tail percentile is of the wait; on a key per thread, cycles and the cycle.
   */
  private void timed(Path docsDir, Scenario scenario, Versus... versus) throws IOException {
    line("## " + number(scenario) + ". " + capitalized(scenario.title()));
    line("");
    String unit = scenario.oneKey() ? "acquisitions/s" : "cycles/s";
    boolean across = scenario.acrossProcesses();
    StringBuilder header = new StringBuilder("| store | implementation | " + unit + " | rounds min-max "
        + "| p50 cycle (µs) | p99 " + (scenario.oneKey() ? "wait" : "cycle") + " (µs) |"
        + (across ? " worker JVM's share |" : ""));
    StringBuilder rule = new StringBuilder("|---|---|---:|---:|---:|---:|" + (across ? "---:|" : ""));
    for (Versus column : versus) {
      header.append(' ').append(column.header).append(" |");
      rule.append("---:|");
    }
    line(header.toString());
    line(rule.toString());
    List<Chart.Bar> bars = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (Row row : results.rows().getOrDefault(scenario, List.of())) {
      Implementation implementation = row.implementation();
      Store store = implementation.store();
      String label = implementation.label(scenario.hold());
      StringBuilder cells = new StringBuilder("| " + store.label() + " | " + label + " | "
          + Chart.number(row.rate()) + " | " + Chart.number(row.minRate()) + "-" + Chart.number(row.maxRate())
          + " | " + Chart.number(row.p50CycleMicros()) + " | "
          + Chart.number(scenario.oneKey() ? row.p99WaitMicros() : row.p99CycleMicros()) + " |");
      if (across) {
        cells.append(' ').append(Targets.percent(row.workerShare())).append(" |");
      }
      for (Versus column : versus) {
        cells.append(' ').append(ratio(column, scenario, implementation)).append(" |");
      }
      line(cells.toString());
      bars.add(new Chart.Bar(store.label() + ": " + label, row.rate(), row.minRate(), row.maxRate(),
          implementation.role()));
      if (row.failure() != null) {
        notes.add(store.label() + ", " + label + ": failed, " + row.failure());
      }
    }
    notes(notes);
    chart(docsDir, scenario.id(), number(scenario) + ". " + scenario.title(), unit + ROUNDS, bars);
  }

  /** A ratio column of a timed scenario's table. */
  private enum Versus {
    /** Over the store's raw limit in the same scenario; blank on the raw limit's row. */
    RAW("x raw"),
    /** Over the store's peer in the same scenario, on Baton's rows; blank where the store has no peer there. */
    PEER("x peer"),
    /** Over the same implementation's mutex in the uncontended scenario. */
    BATON_MUTEX("x Baton mutex");

    private final String header;

    Versus(String header) {
      this.header = header;
    }
  }

  private String ratio(Versus versus, Scenario scenario, Implementation implementation) {
    Store store = implementation.store();
    return switch (versus) {
      case RAW -> implementation.role() == Implementation.Role.RAW
          ? "" : ratio(results.ratio(scenario, implementation, Results.raw(store)));
      case PEER -> implementation.role() == Implementation.Role.BATON
          ? ratio(results.ratio(scenario, implementation, Results.peer(store))) : "";
      case BATON_MUTEX -> ratio(results.ratio(scenario, implementation, Scenario.UNCONTENDED, implementation));
    };
  }

  private static String ratio(double ratio) {
    return Double.isFinite(ratio) ? Targets.factor(ratio) + "x" : "";
  }

  /** Below the linger scenario's chart: what a remote waiter saw of each store's lingering loop. */
  private void remoteWaiters() {
    if (results.remoteWaiters().isEmpty()) {
      return;
    }
    line(String.format(Locale.ROOT, "A remote waiter: while one thread runs the loop with `linger(5s)`, a second "
        + "`LockClient` of the same store (as another process would be) acquires the key with a wait of at most %d s "
        + "(fair, the default: ZooKeeper's non-fair waiters are invisible to a lingering holder), holds it a few ms, "
        + "releases it, and asks again once the loop has taken the lock back (at least 100 ms and 50 cycles later); "
        + "\"asked → got\" of each time it asked. A lingering holder hears of a waiter by the store's watch (ZooKeeper, "
        + "etcd) or by reading the key's status four times a second (Redis, PostgreSQL).",
        RemoteWaiter.WAIT.toSeconds()));
    line("");
    line("| store | implementation | asked | got it | median asked → got (ms) | worst (ms) |");
    line("|---|---|---:|---:|---:|---:|");
    List<String> notes = new ArrayList<>();
    for (RemoteWaiter.Result result : results.remoteWaiters()) {
      Implementation implementation = result.implementation();
      int got = result.served().size();
      line("| " + implementation.store().label() + " | " + implementation.label() + " | " + (got + result.notServed())
          + " | " + got + " | " + Chart.number(result.served().percentileMicros(50) / 1000) + " | "
          + Chart.number(result.served().percentileMicros(100) / 1000) + " |");
      if (result.notServed() > 0) {
        notes.add(implementation.store().label() + ": " + result.notServed() + " of the waits did not get the lock "
            + "within " + RemoteWaiter.WAIT.toSeconds() + " s");
      }
      if (result.failure() != null) {
        notes.add(implementation.store().label() + ": " + result.failure());
      }
    }
    notes(notes);
  }

  private void rawLimits(Path docsDir) throws IOException {
    String title = RAW_LIMITS + ". The raw limit of each store";
    line("## " + title);
    line("");
    line("Not a lock: the least a lock cycle costs at the store, two round trips with the store's own client, "
        + "measured the same way as the locks above (its rows there). It is also measured alone, one thread, before "
        + "the first scenario and after the last, on servers started for this run: if the two differ by more than the "
        + "rounds' spread, what the scenarios left in a server (etcd's index of deleted keys, say) or the machine "
        + "moved between them, and the ratios of the scenarios in between carry that much doubt.");
    line("");
    line("| store | a cycle | 1 thread, cycles/s | p50 cycle (µs) | 8 threads on 8 keys, cycles/s "
        + "| 1 thread alone, before the scenarios | after them |");
    line("|---|---|---:|---:|---:|---:|---:|");
    List<Chart.Bar> bars = new ArrayList<>();
    for (Store store : Scenario.UNCONTENDED.stores()) {
      Implementation raw = Results.raw(store);
      Optional<Row> one = results.row(Scenario.UNCONTENDED, raw);
      Optional<Row> eight = results.row(Scenario.SPREAD, raw);
      line("| " + store.label() + " | " + raw.label().substring("raw: ".length()) + " | "
          + Chart.number(one.map(Row::rate).orElse(Double.NaN)) + " | "
          + Chart.number(one.map(Row::p50CycleMicros).orElse(Double.NaN)) + " | "
          + Chart.number(eight.map(Row::rate).orElse(Double.NaN)) + " | "
          + alone(results.drift().before().get(raw)) + " | " + alone(results.drift().after().get(raw)) + " |");
      bars.add(bar(store.label() + ", 1 thread", one, raw));
      bars.add(bar(store.label() + ", 8 threads", eight, raw));
    }
    line("");
    chart(docsDir, "raw-limit", title, "cycles/s" + ROUNDS, bars);
  }

  /** A raw limit measured alone: its median and the rounds' min-max. */
  private static String alone(Row row) {
    if (row == null || row.rates().length == 0) {
      return "–";
    }
    return Chart.number(row.rate()) + " (" + Chart.number(row.minRate()) + "-" + Chart.number(row.maxRate()) + ")";
  }

  private void heap(Path docsDir) throws IOException {
    Settings settings = results.environment().settings();
    line("## " + MEMORY + ". Memory");
    line("");
    line(String.format(Locale.ROOT, "In a JVM of its own (no server in it; `-XX:+UseSerialGC`), eight threads take "
        + "%,d locks on as many keys, a share each, and keep them; then %,d threads each wait for one of those keys "
        + "through a second client, as if another process held them. "
        + "The heap is the used heap after `System.gc()` (two passes) before and after, divided by the count. The "
        + "keys exist before the first measurement. A waiting thread's cost is over that of a thread parked on a "
        + "latch, measured the same way just before (the parked thread's own cost is in the last column).",
        settings.heldLeases(), settings.waiters()));
    line("");
    line("| store | implementation | heap per held lease (B) | heap per waiting thread (B) | parked thread (B) |");
    line("|---|---|---:|---:|---:|");
    List<Chart.Bar> bars = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (Implementation implementation : Scenario.heapImplementations()) {
      Optional<HeapProbe.Heap> heap = results.heap(implementation);
      double perLease = heap.map(HeapProbe.Heap::perLease).orElse(Double.NaN);
      line("| " + implementation.store().label() + " | " + implementation.label() + " | " + Chart.number(perLease)
          + " | " + Chart.number(heap.map(HeapProbe.Heap::perWaiter).orElse(Double.NaN)) + " | "
          + Chart.number(heap.map(HeapProbe.Heap::perParkedThread).orElse(Double.NaN)) + " |");
      bars.add(new Chart.Bar(implementation.store().label() + ": " + implementation.label(), perLease, Double.NaN,
          Double.NaN, implementation.role()));
      heap.map(HeapProbe.Heap::note).filter(note -> !note.isEmpty())
          .ifPresent(note -> notes.add(implementation.store().label() + ", " + implementation.label() + ": " + note));
    }
    notes(notes);
    chart(docsDir, "heap", MEMORY + ". Heap per held lease", "bytes", bars);
  }

  private static Chart.Bar bar(String label, Optional<Row> row, Implementation implementation) {
    return new Chart.Bar(label, row.map(Row::rate).orElse(Double.NaN), row.map(Row::minRate).orElse(Double.NaN),
        row.map(Row::maxRate).orElse(Double.NaN), implementation.role());
  }

  /** Ends a table, with what went wrong below it. */
  private void notes(List<String> notes) {
    line("");
    for (String note : notes) {
      line("- " + note.replace('\n', ' ').replace("|", "\\|"));
    }
    if (!notes.isEmpty()) {
      line("");
    }
  }

  private void chart(Path docsDir, String id, String title, String unit, List<Chart.Bar> bars) throws IOException {
    Chart.write(title, unit, bars, docsDir.resolve(CHARTS).resolve(id + ".png"));
    line("![" + title + "](" + CHARTS + "/" + id + ".png)");
    line("");
  }

  private void line(String text) {
    page.append(text).append('\n');
  }

  /** The number of a timed scenario's section: its place in {@link Scenario}. */
  private static int number(Scenario scenario) {
    return scenario.ordinal() + 1;
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
