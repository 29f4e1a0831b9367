package dev.baton.bench.suite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs the timed scenarios on a run's servers, one implementation after the other, each with a fresh client. */
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

  /** A scenario in this JVM: a warm-up, then the timed rounds. */
  List<Row> inProcess(Scenario scenario) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Implementation implementation : scenario.implementations()) {
      try {
        rows.add(inProcess(scenario, implementation));
      } catch (Exception e) {
        rows.add(Row.failed(implementation, e));
      }
      progress.accept(scenario.id() + " " + implementation + " done");
    }
    return rows;
  }

  private Row inProcess(Scenario scenario, Implementation implementation) throws Exception {
    try (Contender contender = implementation.open(endpoints)) {
      Load.run(contender, scenario.keys(), settings.warmup());
      double[] rates = new double[settings.rounds()];
      Samples waits = new Samples();
      Samples cycles = new Samples();
      for (int round = 0; round < rates.length; round++) {
        Load.Result result = Load.run(contender, scenario.keys(), settings.round());
        rates[round] = result.rate();
        waits.addAll(result.waits());
        cycles.addAll(result.cycleTimes());
      }
      return new Row(implementation, rates, cycles.percentileMicros(50), cycles.percentileMicros(99),
          waits.percentileMicros(99), Double.NaN, null);
    }
  }

  /** A scenario with half its threads here and half in {@code worker}, all on the scenario's key. */
  List<Row> acrossProcesses(Scenario scenario, WorkerProcess worker) throws Exception {
    List<Row> rows = new ArrayList<>();
    String key = scenario.keys().get(0);
    for (Implementation implementation : scenario.implementations()) {
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
    worker.call("OPEN " + implementation + " " + scenario.threads() + " " + key, "OPENED", ANSWER_MARGIN);
    try (Contender contender = implementation.open(endpoints)) {
      bothJvms(contender, scenario, worker, settings.warmup());
      double[] rates = new double[settings.rounds()];
      long here = 0;
      long there = 0;
      Samples waits = new Samples();
      Samples cycles = new Samples();
      for (int round = 0; round < rates.length; round++) {
        Both both = bothJvms(contender, scenario, worker, settings.round());
        rates[round] = both.local().rate() + both.remoteRate();
        here += both.local().cycles();
        there += both.remoteCycles();
        waits.addAll(both.local().waits());
        cycles.addAll(both.local().cycleTimes());
      }
      return new Row(implementation, rates, cycles.percentileMicros(50), cycles.percentileMicros(99),
          waits.percentileMicros(99), (double) there / (here + there), null);
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
    Load.Result local = Load.run(contender, scenario.keys(), duration);
    String[] ran = worker.await("RAN", duration.plus(ANSWER_MARGIN));
    return new Both(local, Long.parseLong(ran[1]), Long.parseLong(ran[2]));
  }

  /** The heap scenario: each implementation in a fresh worker JVM, which no server and no other client shares. */
  List<HeapProbe.Heap> heap(List<String> workerJvmOptions) throws Exception {
    List<HeapProbe.Heap> heaps = new ArrayList<>();
    for (Implementation implementation : Scenario.heapImplementations()) {
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
