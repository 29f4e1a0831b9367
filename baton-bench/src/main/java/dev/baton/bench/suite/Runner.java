package dev.baton.bench.suite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs the timed scenarios on a run's servers, each implementation with a fresh client: in this JVM the implementations
 * of a store take turns round by round; across processes they run one after the other.
 */
final class Runner {
  private static final Duration ANSWER_MARGIN = Duration.ofSeconds(60);

  private final Endpoints endpoints;
  private final Settings settings;
  private final Consumer<String> progress;

  Runner(Endpoints endpoints, Settings settings, Consumer<String> progress) {
    this.endpoints = endpoints;
    this.settings = settings;
    this.progress = progress;
  }

  /**
   * A scenario in this JVM, store by store. The store's implementations are opened together and each warms up; then
   * they take turns, one timed round each, in an order that rotates every round, so that none is always measured
   * first (on a JVM still settling) or in the same stretch of the machine's drift.
   */
  List<Row> inProcess(Scenario scenario) throws Exception {
    Map<Implementation, Row> rows = new EnumMap<>(Implementation.class);
    for (Store store : Store.values()) {
      List<Implementation> ofStore = scenario.implementations().stream()
          .filter(i -> i.store() == store && settings.runs(i)).toList();
      rows.putAll(inTurns(scenario, ofStore));
    }
    return scenario.implementations().stream().filter(settings::runs).map(rows::get).toList();
  }

  /**
   * The raw limit of each store of the uncontended scenario, uncontended, alone and with a fresh client: the suite runs
   * it before the first scenario and after the last, so that the page shows whether what the scenarios left in the
   * servers moved it (etcd keeps every deleted key in its index until a compaction, which nothing runs here).
   */
  Map<Implementation, Row> rawLimits() throws Exception {
    Map<Implementation, Row> rows = new EnumMap<>(Implementation.class);
    for (Store store : Scenario.UNCONTENDED.stores()) {
      Implementation raw = Results.raw(store);
      if (settings.runs(raw) && settings.runsEveryScenario()) {
        rows.putAll(inTurns(Scenario.UNCONTENDED, List.of(raw)));
      }
    }
    return rows;
  }

  /**
   * For each lingering implementation of the linger scenario, {@code samples} waits of another client for the key
   * while one thread loops on it with linger ({@link RemoteWaiter}), with a fresh pair of clients.
   */
  List<RemoteWaiter.Result> remoteWaiters(int samples) {
    List<RemoteWaiter.Result> results = new ArrayList<>();
    for (Implementation implementation : Scenario.LINGER.implementations()) {
      if (implementation.lingers() && settings.runs(implementation)) {
        RemoteWaiter.Result result = RemoteWaiter.measure(implementation, endpoints, samples);
        results.add(result);
        progress.accept(Scenario.LINGER.id() + " " + implementation + " remote waiter done; " + result.worst());
      }
    }
    return results;
  }

  private Map<Implementation, Row> inTurns(Scenario scenario, List<Implementation> implementations) throws Exception {
    Map<Implementation, Row> rows = new EnumMap<>(Implementation.class);
    Map<Implementation, Contender> open = new LinkedHashMap<>();
    Map<Implementation, Tally> tallies = new EnumMap<>(Implementation.class);
    try {
      for (Implementation implementation : implementations) {
        try {
          Contender contender = implementation.open(endpoints);
          open.put(implementation, contender);
          Duration warmup = Warmup.run(contender, scenario.hold(), scenario.keys(), settings);
          progress.accept(scenario.id() + " " + implementation + " warmed up in " + warmup.toSeconds() + " s");
          tallies.put(implementation, new Tally(settings.rounds()));
        } catch (Exception e) {
          rows.put(implementation, Row.failed(implementation, e));
          closeQuietly(open.remove(implementation));
        }
      }
      for (int round = 0; round < settings.rounds(); round++) {
        List<Implementation> order = new ArrayList<>(tallies.keySet());
        Collections.rotate(order, -round);
        for (Implementation implementation : order) {
          try {
            Load.Result result = Load.run(open.get(implementation), scenario.hold(), scenario.keys(),
                settings.round());
            tallies.get(implementation).add(round, result, 0);
          } catch (Exception e) {
            tallies.remove(implementation);
            rows.put(implementation, Row.failed(implementation, e));
            closeQuietly(open.remove(implementation));
          }
        }
      }
      tallies.forEach((implementation, tally) -> rows.put(implementation, tally.row(implementation, Double.NaN)));
    } finally {
      open.values().forEach(Runner::closeQuietly);
    }
    implementations.forEach(implementation -> progress.accept(scenario.id() + " " + implementation + " done"));
    return rows;
  }

  private static void closeQuietly(Contender contender) {
    if (contender == null) {
      return;
    }
    try {
      contender.close();
    } catch (Exception e) {
      System.err.println("Closing a benchmark client failed: " + e);
    }
  }

  /** The rounds of one implementation in one scenario so far. */
  private static final class Tally {
    private final double[] rates;
    private final Samples waits = new Samples();
    private final Samples cycles = new Samples();

    Tally(int rounds) {
      rates = new double[rounds];
    }

    /** A round: this JVM's result, and the rate of the worker JVM's threads if any. */
    void add(int round, Load.Result result, double workerRate) {
      rates[round] = result.rate() + workerRate;
      waits.addAll(result.waits());
      cycles.addAll(result.cycleTimes());
    }

    Row row(Implementation implementation, double workerShare) {
      return new Row(implementation, rates, cycles.percentileMicros(50), cycles.percentileMicros(99),
          waits.percentileMicros(99), workerShare, null);
    }
  }

  /** A scenario with half its threads here and half in {@code worker}, all on the scenario's key. */
  List<Row> acrossProcesses(Scenario scenario, WorkerProcess worker) throws Exception {
    List<Row> rows = new ArrayList<>();
    String key = scenario.keys().get(0);
    for (Implementation implementation : scenario.implementations().stream().filter(settings::runs).toList()) {
      try {
        rows.add(acrossProcesses(scenario, implementation, key, worker));
      } catch (Exception e) {
        rows.add(Row.failed(implementation, e));
      }
      progress.accept(scenario.id() + " " + implementation + " done");
    }
    return rows;
  }

  private Row acrossProcesses(Scenario scenario, Implementation implementation, String key, WorkerProcess worker)
      throws Exception {
    worker.call("OPEN " + implementation + " " + scenario.hold() + " " + scenario.threads() + " " + key, "OPENED",
        ANSWER_MARGIN);
    try (Contender contender = implementation.open(endpoints)) {
      bothJvms(contender, scenario, worker, settings.warmup());
      Tally tally = new Tally(settings.rounds());
      long here = 0;
      long there = 0;
      for (int round = 0; round < settings.rounds(); round++) {
        Both both = bothJvms(contender, scenario, worker, settings.round());
        tally.add(round, both.local(), both.remoteRate());
        here += both.local().cycles();
        there += both.remoteCycles();
      }
      return tally.row(implementation, (double) there / (here + there));
    } finally {
      worker.call("CLOSE", "CLOSED", ANSWER_MARGIN);
    }
  }

  /** One round of both JVMs: the local threads' result, and the worker's count and time. */
  private record Both(Load.Result local, long remoteCycles, long remoteNanos) {
    double remoteRate() {
      return remoteCycles * 1e9 / remoteNanos;
    }
  }

  private static Both bothJvms(Contender contender, Scenario scenario, WorkerProcess worker, Duration duration)
      throws Exception {
    worker.send("RUN " + duration.toMillis());
    Load.Result local = Load.run(contender, scenario.hold(), scenario.keys(), duration);
    String[] ran = worker.await("RAN", duration.plus(ANSWER_MARGIN));
    return new Both(local, Long.parseLong(ran[1]), Long.parseLong(ran[2]));
  }

  /** The heap scenario: each implementation in a fresh worker JVM, which no server and no other client shares. */
  List<HeapProbe.Heap> heap(List<String> workerJvmOptions) throws Exception {
    List<HeapProbe.Heap> heaps = new ArrayList<>();
    for (Implementation implementation : Scenario.heapImplementations()) {
      if (!settings.runs(implementation) || !settings.runsEveryScenario()) {
        heaps.add(new HeapProbe.Heap(Double.NaN, Double.NaN, Double.NaN,
            settings.runs(implementation) ? "not run: bench.scenarios" : "not run: bench.stores"));
        continue;
      }
      try (WorkerProcess worker = WorkerProcess.start(endpoints, workerJvmOptions)) {
        String[] heap = worker.call("HEAP " + implementation + " " + settings.heldLeases() + " " + settings.waiters(),
            "HEAP", Duration.ofMinutes(5));
        heaps.add(HeapProbe.Heap.parse(heap));
      } catch (Exception e) {
        heaps.add(new HeapProbe.Heap(Double.NaN, Double.NaN, Double.NaN, "failed: " + e));
      }
      progress.accept("heap " + implementation + " done");
    }
    return heaps;
  }
}
