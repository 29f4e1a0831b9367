package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.internal.Redaction;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton demo}: workers, each with its own client as if on its own machine, contend for one lock and
 * update a shared counter with a read-pause-write; the report proves no update was lost.
 */
@Command(
    name = "demo",
    description = {"Shows a distributed lock at work.",
        "Workers, each with its own connection as if on its own machine, contend for one lock and update a shared"
            + " counter with a read, a pause and a write. Without a backend it starts a ZooKeeper server in this"
            + " process: nothing to install. The report shows the acquisitions per worker, the wait percentiles,"
            + " the fencing tokens in grant order and the counter check; the demo exits 1 if an update was lost."},
    footer = {"", "Examples:",
        "  baton demo",
        "  baton demo --workers 4 --seconds 5",
        "  baton demo -b redis://127.0.0.1:6379",
        "  baton demo -b memory://        # on a store inside this process"})
final class DemoCommand implements Callable<Integer> {
  private static final String KEY = "baton-demo";

  @Spec
  private CommandSpec spec;

  @Mixin
  private HelpOption help;

  @Option(names = {"-b", "--backend"}, paramLabel = "URI", defaultValue = "${env:" + Backends.ENV + "}",
      description = Backends.DEMO_OPTION_HELP)
  private String backend;

  @Option(names = "--workers", paramLabel = "N", defaultValue = "8", description = "How many contenders (default: ${DEFAULT-VALUE}).")
  private int workers;

  @Option(names = "--seconds", paramLabel = "N", defaultValue = "10", description = "How long to run (default: ${DEFAULT-VALUE}).")
  private int seconds;

  @Option(names = "--pause", paramLabel = "DURATION", defaultValue = "1ms", converter = DurationConverter.class,
      description = "The pause between reading and writing the counter (default: ${DEFAULT-VALUE}).")
  private Duration pause;

  @Override
  public Integer call() throws InterruptedException {
    OptionRange.check(spec, "--workers", workers, 1, 256);
    OptionRange.check(spec, "--seconds", seconds, 1, 3600);
    OptionRange.check(spec, "--pause", pause, Duration.ZERO, OptionRange.MAX_DURATION);
    PrintWriter out = spec.commandLine().getOut();
    EmbeddedZooKeeper embedded = backend == null || backend.isBlank() ? new EmbeddedZooKeeper() : null;
    try {
      String uri = backend;
      if (embedded != null) {
        embedded.start();
        uri = "zookeeper://" + embedded.connectString();
      }
      out.printf("Baton demo: %d workers contend for the lock '%s' on %s%s for %d s.%n", workers, KEY,
          Redaction.uri(uri),
          embedded != null ? " (embedded)" : "", seconds);
      out.flush();
      return run(uri, out) ? ExitCodes.OK : 1;
    } finally {
      if (embedded != null) {
        embedded.stop();
      }
    }
  }

  private boolean run(String uri, PrintWriter out) throws InterruptedException {
    LockOptions options = LockOptions.defaults().withTtl(Duration.ofSeconds(10));
    List<LockClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < workers; i++) {
        clients.add(Backends.connectHere(uri, options));
      }
      DemoRegister register = new DemoRegister(pause.toNanos());
      AtomicLong total = new AtomicLong();
      long startAt = System.nanoTime();
      long endAt = startAt + Duration.ofSeconds(seconds).toNanos();
      List<DemoWorker> team = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < workers; i++) {
        DemoWorker worker = new DemoWorker("w" + (i + 1), clients.get(i).lock(KEY), register, total, endAt);
        team.add(worker);
        threads.add(new Thread(worker, "baton-demo-" + worker.name()));
      }
      try (DemoProgress progress = new DemoProgress(out, Terminal.isInteractive(), total, startAt, seconds)) {
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
          thread.join();
        }
      }
      DemoReport report = new DemoReport(team, register, (System.nanoTime() - startAt) / 1e9);
      report.print(out);
      return report.passed();
    } finally {
      clients.forEach(LockClient::close);
    }
  }
}
