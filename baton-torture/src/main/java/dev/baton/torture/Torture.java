package dev.baton.torture;

import dev.baton.embedded.internal.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Runs a torture: worker JVMs contend for one key (a lock, a read-write lock, a semaphore or a leadership), or for
 * random overlapping sets of a few keys (multi-locks), and work while they hold it (holders alone update the
 * {@link FencedRegister}, readers read it, permit and multi-lock holders pause) while faults are injected on a
 * schedule; then the {@link TortureChecker} reads their histories. Callable from
 * JUnit, and from {@code baton torture}:
 *
 * <pre>{@code
 * TortureResult result = Torture.run(new TortureOptions(MyFactory.class, target, "torture", 6,
 *     Duration.ofSeconds(20), Duration.ofSeconds(1), EnumSet.of(Fault.PAUSE, Fault.KILL), reportDir,
 *     Primitive.SEMAPHORE, 3), null);
 * assertThat(result.passed()).isTrue();
 * }</pre>
 */
public final class Torture {
  private final TortureOptions options;
  private final ServerFaults server;
  private final Path workDir;
  private final FencedRegister register = new FencedRegister();
  private final Map<String, WorkerProcess> everyWorker = new LinkedHashMap<>();
  private final List<WorkerProcess> running = new ArrayList<>();
  private final List<FaultEvent> faults = new ArrayList<>();
  private final List<String> unexpectedExits = new ArrayList<>();
  private final Random random = new Random();
  private final long startNanos = System.nanoTime();
  private int nextWorker;

  private Torture(TortureOptions options, ServerFaults server, Path workDir) {
    this.options = options;
    this.server = server;
    this.workDir = workDir;
  }

  /**
   * Runs the torture and checks it; writes the report when the options name a directory.
   *
   * @param server what the torture may do to the store, or null when it may not (then only worker faults)
   * @throws IllegalArgumentException if a fault needs {@code server} and it is null
   */
  public static TortureResult run(TortureOptions options, ServerFaults server) throws InterruptedException {
    for (Fault fault : options.faults()) {
      if (fault.needsServer() && server == null) {
        throw new IllegalArgumentException("The fault " + fault.option() + " needs a store the torture started"
            + " itself; with a store given by address use pause and kill.");
      }
    }
    Path workDir = workDir(options);
    Torture torture = new Torture(options, server, workDir);
    try {
      return torture.execute();
    } finally {
      torture.register.close();
      if (options.reportDir() == null) {
        WorkDirs.delete(workDir, "torture histories");
      }
    }
  }

  private TortureResult execute() throws InterruptedException {
    try {
      for (int i = 0; i < options.workers(); i++) {
        startWorker();
      }
      long end = startNanos + options.duration().toNanos();
      List<Fault> schedule = List.copyOf(options.faults());
      int turn = 0;
      while (System.nanoTime() < end) {
        long gap = options.ttl().toMillis() + random.nextInt((int) options.ttl().toMillis() + 1);
        Thread.sleep(Math.min(gap, Math.max(1, (end - System.nanoTime()) / 1_000_000))); // the fault schedule
        replaceExited();
        if (!schedule.isEmpty() && System.nanoTime() < end) {
          inject(schedule.get(turn++ % schedule.size()));
        }
      }
      replaceExited();
    } finally {
      long bound = options.waitTime().plus(options.ttl()).multipliedBy(2).toMillis();
      for (WorkerProcess worker : running) {
        worker.stop(bound);
      }
    }
    TortureResult result = new TortureChecker(options, register, faults, histories(), keyHistories(), startNanos,
        System.nanoTime()).check(unexpectedExits);
    if (options.reportDir() != null) {
      TortureReport.write(result, options.reportDir());
    }
    return result;
  }

  private void inject(Fault fault) throws InterruptedException {
    long start = System.nanoTime();
    switch (fault) {
      case PAUSE -> {
        WorkerProcess victim = pickVictim(true);
        if (victim.signal("STOP")) {
          Thread.sleep(options.ttl().multipliedBy(2).toMillis()); // past the ttl, so that the lock expires under it
          victim.signal("CONT");
          faults.add(new FaultEvent(fault, victim.name(), start, System.nanoTime()));
        }
      }
      case KILL -> {
        WorkerProcess victim = pickVictim(random.nextBoolean());
        victim.kill();
        running.remove(victim);
        faults.add(new FaultEvent(fault, victim.name(), start, System.nanoTime()));
        startWorker();
      }
      case SERVER_RESTART -> {
        server.restart();
        faults.add(new FaultEvent(fault, null, start, System.nanoTime()));
      }
      case LEADER_KILL -> {
        server.killLeader();
        faults.add(new FaultEvent(fault, null, start, System.nanoTime()));
      }
      case FAILOVER -> {
        server.failover();
        faults.add(new FaultEvent(fault, null, start, System.nanoTime()));
      }
      case CONNECTION_KILL -> {
        server.killConnections();
        faults.add(new FaultEvent(fault, null, start, System.nanoTime()));
      }
    }
  }

  /** A worker that exited without being killed failed; it is noted, and replaced so that the torture goes on. */
  private void replaceExited() {
    for (WorkerProcess worker : List.copyOf(running)) {
      if (!worker.isAlive()) {
        running.remove(worker);
        unexpectedExits.add(worker.name() + " exited by itself; its last output: " + worker.lastOutput());
        startWorker();
      }
    }
  }

  private WorkerProcess pickVictim(boolean preferHolder) {
    List<WorkerProcess> alive = running.stream().filter(WorkerProcess::isAlive).toList();
    List<WorkerProcess> holders = alive.stream().filter(WorkerProcess::isHolding).toList();
    List<WorkerProcess> from = preferHolder && !holders.isEmpty() ? holders : alive.isEmpty() ? running : alive;
    return from.get(random.nextInt(from.size()));
  }

  private void startWorker() {
    String name = "w" + nextWorker++;
    WorkerProcess worker = WorkerProcess.start(name, options, register.port(), workDir.resolve(name + ".history"));
    everyWorker.put(name, worker);
    running.add(worker);
  }

  private Map<String, List<History.Event>> histories() {
    Map<String, List<History.Event>> histories = new LinkedHashMap<>();
    everyWorker.forEach((name, worker) -> histories.put(name, History.read(worker.history())));
    return histories;
  }

  /** For a multi-lock, each key's histories by worker ({@link MultiLockHolder#keyHistory}); else none. */
  private List<Map<String, List<History.Event>>> keyHistories() {
    List<Map<String, List<History.Event>>> keys = new ArrayList<>();
    if (options.primitive() == Primitive.MULTI_LOCK) {
      for (int k = 0; k < Primitive.MULTI_KEYS; k++) {
        Map<String, List<History.Event>> ofKey = new LinkedHashMap<>();
        int key = k;
        everyWorker.forEach((name, worker) ->
            ofKey.put(name, History.read(MultiLockHolder.keyHistory(worker.history(), key))));
        keys.add(ofKey);
      }
    }
    return keys;
  }

  private static Path workDir(TortureOptions options) {
    try {
      if (options.reportDir() != null) {
        Path histories = options.reportDir().resolve("histories");
        if (Files.exists(histories)) {
          WorkDirs.delete(histories, "an earlier torture's histories");
        }
        Files.createDirectories(histories);
        return histories;
      }
      return Files.createTempDirectory("baton-torture-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the torture's directory: " + e.getMessage(), e);
    }
  }

  /** One injected fault: what, on which worker (null for the store), from when to when (nanoTime). */
  record FaultEvent(Fault fault, String worker, long startNanos, long endNanos) {}
}
