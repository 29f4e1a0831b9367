package dev.baton.cli;

import dev.baton.connect.BackendUri;
import dev.baton.embedded.EmbeddedZooKeeper;
import dev.baton.embedded.ZooKeeperEnsemble;
import dev.baton.etcd.EtcdLockClient;
import dev.baton.internal.Redaction;
import dev.baton.torture.Fault;
import dev.baton.torture.Primitive;
import dev.baton.torture.ServerFaults;
import dev.baton.torture.Torture;
import dev.baton.torture.TortureOptions;
import dev.baton.torture.TortureResult;
import dev.baton.torture.TortureServers;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton torture}: worker processes contend for one lock, read-write lock, semaphore or leadership and update a
 * fenced register under it, or take multi-locks over random overlapping sets of keys, while faults are injected; the
 * checker then says whether the primitive's bound (one holder, one writer or many readers, N permit holders, one
 * leader, one holder per key and progress, one holder and waiters served) and fencing held.
 */
@Command(
    name = "torture",
    description = {"Proves mutual exclusion under faults, of a lock, a read-write lock, a semaphore, a leadership or"
        + " multi-locks.",
        "Worker JVMs contend for one lock and update a fenced register with a read, a pause and a write, while"
            + " holders are paused past the ttl (pause), workers are killed (kill), the store restarts"
            + " (server-restart) or its leader is killed (leader-kill), these two only on the embedded ZooKeeper"
            + " (leader-kill starts a three-server ensemble), or Baton's sessions on a PostgreSQL database given by"
            + " address end (connection-kill, by pg_terminate_backend; no other application's session). The report"
            + " says which holds overlapped and why, whether tokens grew and updates were lost; exits 1 on a"
            + " violation, or on a flag: holders that may share never did.",
        "--primitive rw: readers read and pause, writers read, pause and write; no writer may hold beside anyone,"
            + " and readers must hold together. semaphore: permit holders pause; never more than --permits at"
            + " once, and that many must hold together. leader: leaders read, pause and write until revoked or"
            + " they resign; one leader at a time, a revoked one told before the next is elected. multi: each hold"
            + " takes 2 to 4 random keys of 5 with a multi-lock, waiting without limit, and pauses; one holder at a"
            + " time on each key, and grants never stall for longer than the wait time (no deadlock). linger: the"
            + " lock, each holder lingering 1 min after its release; one holder at a time, and every worker is"
            + " granted at least every two wait times (a lingering holder gives the lock up to waiters)."},
    footer = {"", "Examples:",
        "  baton torture --seconds 20",
        "  baton torture -b redis://127.0.0.1:6379 --faults pause,kill",
        "  baton torture -b postgresql://db/app --faults pause,connection-kill",
        "  baton torture -b mysql://db/app --faults pause,kill",
        "  baton torture --faults pause,kill,server-restart --workers 4 --ttl 1s",
        "  baton torture --faults pause,leader-kill --seconds 120 --report torture-report",
        "  baton torture --primitive rw --faults pause,kill,server-restart --seconds 30",
        "  baton torture --primitive semaphore --permits 3 --workers 6",
        "  baton torture --primitive leader --faults pause,leader-kill",
        "  baton torture --primitive linger --faults pause,kill"})
final class TortureCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Mixin
  private HelpOption help;

  @Option(names = {"-b", "--backend"}, paramLabel = "URI", defaultValue = "${env:" + Backends.ENV + "}",
      description = Backends.EMBEDDED_OPTION_HELP)
  private String backend;

  @Option(names = "--workers", paramLabel = "N", defaultValue = "6", description = "Worker processes (default: ${DEFAULT-VALUE}).")
  private int workers;

  @Option(names = "--seconds", paramLabel = "N", defaultValue = "60", description = "How long faults go on (default: ${DEFAULT-VALUE}).")
  private int seconds;

  @Option(names = "--ttl", paramLabel = "DURATION", defaultValue = "2s", converter = DurationConverter.class,
      description = "The locks' ttl; a pause lasts twice as long (default: ${DEFAULT-VALUE}).")
  private Duration ttl;

  @Option(names = "--faults", paramLabel = "LIST", defaultValue = "pause,kill",
      description = "Among pause, kill, server-restart, leader-kill, connection-kill (default: ${DEFAULT-VALUE}).")
  private String faults;

  @Option(names = "--report", paramLabel = "DIR", description = "A folder for summary.txt, result.json and timeline.png.")
  private Path report;

  @Option(names = "--key", paramLabel = "KEY", defaultValue = "baton-torture", description = "The key (default: ${DEFAULT-VALUE}).")
  private String key;

  @Option(names = "--primitive", paramLabel = "NAME", defaultValue = "lock",
      description = "What the workers contend for: lock, rw, semaphore, leader, multi (multi-locks over random"
          + " overlapping sets of 2 to 4 of 5 keys under --key), or linger (the lock, lingering after each release)"
          + " (default: ${DEFAULT-VALUE}).")
  private String primitive;

  @Option(names = "--permits", paramLabel = "N",
      description = "The semaphore's permits, fewer than the workers (default: half the workers).")
  private Integer permits;

  @Override
  public Integer call() throws InterruptedException {
    OptionRange.check(spec, "--workers", workers, 2, 64);
    OptionRange.check(spec, "--seconds", seconds, 1, 86_400);
    OptionRange.check(spec, "--ttl", ttl, Duration.ofMillis(200), OptionRange.MAX_DURATION);
    Primitive contended = Primitive.fromOption(primitive);
    if (permits != null && contended != Primitive.SEMAPHORE) {
      throw new IllegalArgumentException("--permits is for --primitive semaphore, not " + contended.option() + ".");
    }
    int semaphorePermits = contended != Primitive.SEMAPHORE ? 1 : permits != null ? permits : Math.max(1, workers / 2);
    Set<Fault> chosen = EnumSet.noneOf(Fault.class);
    Arrays.stream(faults.split(",")).filter(name -> !name.isBlank()).map(Fault::fromOption).forEach(chosen::add);
    PrintWriter out = spec.commandLine().getOut();
    Backends.requireShared(backend);
    boolean local = backend == null || backend.isBlank();
    if (local && chosen.contains(Fault.LEADER_KILL) && chosen.contains(Fault.SERVER_RESTART)) {
      throw new IllegalArgumentException("--faults: leader-kill runs on an embedded ensemble, server-restart on a"
          + " single embedded server; choose one of them.");
    }
    EmbeddedZooKeeper single = local && !chosen.contains(Fault.LEADER_KILL) ? new EmbeddedZooKeeper() : null;
    ZooKeeperEnsemble ensemble = local && single == null ? new ZooKeeperEnsemble() : null;
    try {
      String uri = backend;
      AddressFaults addressFaults = local ? null : AddressFaults.of(uri, chosen);
      ServerFaults server = addressFaults;
      if (single != null) {
        single.start();
        uri = "zookeeper://" + single.connectString();
        server = TortureServers.of(single);
      } else if (ensemble != null) {
        ensemble.start();
        uri = "zookeeper://" + ensemble.connectString();
        server = TortureServers.of(ensemble);
      }
      TortureOptions options = new TortureOptions(UriClientFactory.class, uri, key, workers,
          Duration.ofSeconds(seconds), ttl, chosen, report, contended, semaphorePermits, crashBound(uri, local));
      out.printf("Baton torture: %d worker processes contend for %s '%s' on %s%s for %d s, ttl %d ms, faults %s.%n",
          workers, subject(contended, semaphorePermits), Printable.value(key), Redaction.uri(uri), local ? " (embedded)" : "", seconds,
          ttl.toMillis(), faults);
      out.flush();
      TortureResult result = Torture.run(options, server);
      out.print(result.summary());
      if (addressFaults != null) {
        out.print(addressFaults.outcome());
      }
      if (report != null) {
        out.println("Report: " + report.toAbsolutePath());
      }
      out.flush();
      return result.passed() ? ExitCodes.OK : 1;
    } finally {
      if (single != null) {
        single.stop();
      }
      if (ensemble != null) {
        ensemble.close();
      }
    }
  }

  private static String subject(Primitive primitive, int permits) {
    return switch (primitive) {
      case LOCK -> "the lock";
      case LINGER -> "the lock, each holder lingering " + Primitive.LINGER_FOR.toMinutes() + " min after its release";
      case READ_WRITE -> "the read-write lock";
      case SEMAPHORE -> "the semaphore of " + permits + " permits";
      case LEADERSHIP -> "the leadership";
      case MULTI_LOCK -> "multi-locks over random sets of " + Primitive.MULTI_KEYS + " keys";
    };
  }

  /**
   * How long the store may keep what a killed worker held or waited with: the workers' session timeout on ZooKeeper
   * (the embedded server grants at most its own maximum), their lease's on etcd, the ttl where entries expire by it.
   */
  private Duration crashBound(String uri, boolean local) {
    if (local) {
      return EmbeddedZooKeeper.MAX_SESSION_TIMEOUT;
    }
    return switch (BackendUri.parse(uri).backend()) {
      case ZOOKEEPER -> ZooKeeperLockClient.DEFAULT_SESSION_TIMEOUT;
      case ETCD -> EtcdLockClient.DEFAULT_SESSION_TIMEOUT;
      default -> ttl;
    };
  }
}
