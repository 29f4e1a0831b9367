package dev.baton.cli;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import dev.baton.LockTimeoutException;
import dev.baton.LostReason;
import dev.baton.internal.Redaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code baton exec}: runs a command while holding a lock, like flock(1) across machines.
 *
 * <p>Its picocli model is built in code ({@link #model}) rather than read from annotations, whose reflection and
 * proxies generated at run time cost every exec 14% of its CPU on Java 25 (bench/notes.md), for a model that is the
 * same at every run. The options' values are read from that model once parsed.
 */
final class ExecCommand implements Callable<Integer> {
  private static final String ON_REVOKE_TERM = "term";
  private static final String ON_REVOKE_IGNORE = "ignore";
  private static final String BACKEND = "--backend";
  private static final String KEY = "--key";
  private static final String EXCLUSIVE = "--exclusive";
  private static final String SHARED = "--shared";
  private static final String PERMITS = "--permits";
  private static final String WAIT = "--wait";
  private static final String NONBLOCK = "--nonblock";
  private static final String CONFLICT_EXIT_CODE = "--conflict-exit-code";
  private static final String HOLD_TIMEOUT = "--hold-timeout";
  private static final String TTL = "--ttl";
  private static final String KILL_AFTER = "--kill-after";
  private static final String ON_REVOKE = "--on-revoke";
  private static final String DURATION = "DURATION";

  private static final String[] SYNOPSIS = {
      "baton exec [-b URI] [-w SECONDS | -n] [-x | -s | -p N] [-E N] [--ttl D]",
      "                  [--hold-timeout D] [--kill-after D] [--on-revoke term|ignore]",
      "                  KEY [--] CMD [ARG...]",
      "       baton exec [OPTIONS] --key KEY [--key KEY...] [--] CMD [ARG...]"};

  private static final String[] DESCRIPTION = {
      "Runs CMD while holding the lock KEY, like flock(1) across machines.",
      "Of all the baton exec runs with the same backend and KEY, one runs its command at a time. It waits for the"
          + " lock as long as it takes, unless -w or -n says otherwise.",
      "",
      "The options come before KEY: every word after KEY is CMD's (baton exec k ls -l passes -l to ls), as with"
          + " flock(1); a -- between them is optional.",
      "",
      "--key repeated (--key a --key b) runs CMD under every one of those locks at once: baton takes them one"
          + " after the other in one order, the same for every run (sorted), within the one --wait, and lets go of"
          + " those it took if it cannot have the others, so two runs asking for overlapping keys never wait for"
          + " each other forever. A run of one of the keys alone excludes it as well.",
      "",
      "CMD inherits stdin, stdout and stderr, and gets in its environment BATON_KEY, BATON_FENCING_TOKEN (a number"
          + " that grows with every acquisition: give it to what CMD writes to, so that it can reject an older"
          + " holder), BATON_KEYS and BATON_FENCING_TOKENS (every key and its token, one a line, in the same order;"
          + " with several keys, BATON_KEY is the first and BATON_FENCING_TOKEN the largest) and BATON_BACKEND (the"
          + " URI without its password or secret parameters). BATON_USER,"
          + " BATON_PASSWORD and BATON_PASSWORD_FILE are taken out of its environment.",
      "",
      "SIGINT, SIGTERM and SIGHUP sent to baton are passed to CMD; the lock is released once CMD has exited."
          + " If the lock is lost while CMD runs (the store lost it, or --hold-timeout passed), CMD and the processes it"
          + " started get SIGTERM, then SIGKILL after --kill-after, and baton exits 74.",
      "",
      "baton revoke KEY (or LockClient.requestRelease) asks the holder to let go: with --on-revoke term, CMD gets"
          + " SIGTERM (as if sent to baton), and the lock is released once CMD has exited; by default the request"
          + " is ignored and CMD runs on.",
      "",
      "CMD never outlives the lock: it runs in a process group of its own under a small supervisor (setsid,"
          + " setpriv and sh). If baton dies, even by SIGKILL or the OOM killer, the group gets SIGTERM, then SIGKILL"
          + " after --kill-after; processes of the group still running when CMD exits are stopped the same way"
          + " before the lock is released.",
      ""};

  private static final String[] FOOTER = {
      "",
      "Durations: " + DurationConverter.FORMS + ".",
      "",
      "Unlike flock(1), on purpose: KEY names a lock in the store, not a file; the lock outlives a dead baton by"
          + " --ttl, as etcdctl's does; a lock not acquired exits 75 (flock: 1) unless -E says otherwise. There is"
          + " no -o, since CMD holds no descriptor of the lock; no -u, since only the holder releases, when CMD"
          + " exits; and no -c: write sh -c 'CMD'.",
      "",
      "Exit status: CMD's own (128+N if signal N killed it); 64 bad usage; 69 backend unreachable; 70 backend not"
          + " set up for baton (or another failure); 74 lock lost while CMD ran; 75 (or -E's N) lock not acquired"
          + " within --wait; 77 refused by the backend (credentials, permissions); 126 CMD could not be run (or"
          + " setsid, setpriv are missing); 127 CMD not found.",
      "",
      "Examples:",
      "  baton exec -b redis://127.0.0.1:6379 deploy ./deploy.sh production",
      "  baton exec -b zookeeper://zk1:2181,zk2:2181 -w 300 reindex make reindex",
      "  baton exec -s catalog ./read-catalog.sh    # beside other -s runs",
      "  baton exec --key deploy -- ./deploy.sh    # the key as an option",
      "  baton exec --key acct/1 --key acct/2 -- ./transfer.sh  # both at once",
      "",
      "In the crontab of every machine, a nightly job that runs once: the first machine to take the lock runs"
          + " it, the others try once (-n) and skip it with exit status 75 (provided the job takes longer than the"
          + " machines' clocks differ):",
      "    BATON_BACKEND=redis://10.0.0.5:6379",
      "    0 3 * * * /opt/baton/bin/baton exec -n nightly-report /opt/jobs/report.sh"};

  /** The values --on-revoke takes, for completion and help. */
  static final class OnRevokeActions extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    OnRevokeActions() {
      super(List.of(ON_REVOKE_TERM, ON_REVOKE_IGNORE));
    }
  }

  private final CommandSpec spec;

  /** The locks' names, from KEY or --key: one, or several taken together. */
  private List<String> keys;

  /** The command to run and its arguments. */
  private List<String> command;

  private ExecCommand() {
    spec = CommandSpec.wrapWithoutInspection(this);
  }

  /**
   * The model of {@code baton exec}, a new command of its own: its options in the order help lists them, KEY and
   * CMD. {@code -v/--verbose} comes from baton's model once this is its subcommand.
   */
  static CommandSpec model() {
    CommandSpec spec = new ExecCommand().spec;
    DurationConverter durations = new DurationConverter();
    spec.name("exec");
    spec.usageMessage().sortOptions(false).customSynopsis(SYNOPSIS).descriptionHeading("%n").description(DESCRIPTION)
        .footer(FOOTER);
    spec.addOption(OptionSpec.builder("-b", BACKEND).paramLabel("URI").type(String.class)
        .defaultValue("${env:" + Backends.ENV + "}").description(Backends.OPTION_HELP).build());
    spec.addOption(OptionSpec.builder(KEY).paramLabel("KEY").arity("1").type(List.class).auxiliaryTypes(String.class)
        .description("The name of the lock, as an option: then every word after the options is CMD's. Repeated,"
            + " CMD runs under every one of the locks at once (exclusive only).").build());
    // Under what CMD runs: the key's exclusive lock (the default), its read lock, or one of N permits. The default's
    // name, as flock(1) has it: it only excludes -s and -p, which the group does.
    spec.addArgGroup(ArgGroupSpec.builder().exclusive(true).multiplicity("0..1")
        .addArg(OptionSpec.builder("-x", EXCLUSIVE).type(boolean.class)
            .description("Run CMD under the exclusive lock of KEY (the default).").build())
        .addArg(OptionSpec.builder("-s", SHARED).type(boolean.class)
            .description("Run CMD under the read lock of KEY: beside other --shared runs, never beside an exclusive"
                + " one. A waiting exclusive run holds back --shared runs that come after it.").build())
        .addArg(OptionSpec.builder("-p", PERMITS).paramLabel("N").type(Integer.class)
            .description("Run CMD under one of N permits of the semaphore KEY: at most N such runs at once. Every run"
                + " on KEY must give the same N.").build())
        .build());
    spec.addOption(OptionSpec.builder("-w", WAIT).paramLabel("SECONDS").type(Duration.class)
        .converters(durations)
        .description("How long to wait for the lock: seconds (0.5) or with a unit (500ms, 5m); 0 tries once."
            + " Default: forever, as flock(1) and etcdctl lock.").build());
    spec.addOption(OptionSpec.builder("-n", NONBLOCK).type(boolean.class)
        .description("Try once: the same as --wait 0.").build());
    spec.addOption(OptionSpec.builder("-E", CONFLICT_EXIT_CODE).paramLabel("N").type(int.class)
        .defaultValue("" + ExitCodes.NOT_ACQUIRED)
        .description("The exit status when the lock is not acquired within --wait, from 0 to 255, as flock's -E."
            + " Default: ${DEFAULT-VALUE}.").build());
    spec.addOption(OptionSpec.builder(HOLD_TIMEOUT).paramLabel(DURATION).type(Duration.class)
        .converters(durations)
        .description("Hold timeout: the lock frees itself this long after it was granted, and CMD is stopped."
            + " Default: none, the lock is renewed while CMD runs.").build());
    spec.addOption(OptionSpec.builder(TTL).paramLabel(DURATION).type(Duration.class).defaultValue("10s")
        .converters(durations)
        .description("How long the lock outlives a baton that crashed or was killed. Default: ${DEFAULT-VALUE}.")
        .build());
    spec.addOption(OptionSpec.builder(KILL_AFTER).paramLabel(DURATION).type(Duration.class).defaultValue("10s")
        .converters(durations)
        .description("When CMD must stop (the lock was lost, baton died, CMD left processes running), how long"
            + " they have between SIGTERM and SIGKILL. Default: ${DEFAULT-VALUE}.").build());
    spec.addOption(OptionSpec.builder(ON_REVOKE).paramLabel("ACTION").type(String.class).defaultValue(ON_REVOKE_IGNORE)
        .completionCandidates(new OnRevokeActions())
        .description("What a request to release the lock (baton revoke KEY) does while CMD runs: term sends CMD"
            + " SIGTERM, ignore does nothing. Default: ${DEFAULT-VALUE}.").build());
    spec.addOption(HelpOption.option());
    spec.addPositional(PositionalParamSpec.builder().index("0").arity("0..1").paramLabel("KEY").type(String.class)
        .description("The name of the lock, unless --key gives it.").build());
    spec.addPositional(PositionalParamSpec.builder().index("1..*").arity("0..*").paramLabel("CMD").type(List.class)
        .auxiliaryTypes(String.class).description("The command to run and its arguments: every word after KEY.")
        .build());
    return spec;
  }

  /** The value of the option {@code name} once parsed: the one given, else its default, else null. */
  private <T> T option(String name) {
    return spec.findOption(name).getValue();
  }

  /** Whether the option {@code name}, which takes no value, was given. */
  private boolean flag(String name) {
    return Boolean.TRUE.equals(spec.findOption(name).getValue());
  }

  /** The keys given as --key: none, one, or several taken together. */
  private List<String> keyOptions() {
    List<String> given = option(KEY);
    return given == null ? List.of() : given;
  }

  /** Whether CMD runs under the key's read lock or one of its permits rather than its exclusive lock. */
  private boolean notExclusive() {
    return flag(SHARED) || option(PERMITS) != null;
  }

  /** The option that asked for a read lock or a permit, as messages name it. */
  private String notExclusiveOption() {
    return flag(SHARED) ? SHARED : PERMITS;
  }

  /** The exit status for a lock not acquired within the wait: 75, or -E's. */
  int conflictExitCode() {
    return option(CONFLICT_EXIT_CODE);
  }

  @Override
  public Integer call() throws InterruptedException {
    LockKey.Command line = line();
    keys = line.keys();
    command = line.words();
    checkRanges();
    LockOptions options = LockOptions.builder().waitTime(flag(NONBLOCK) ? Duration.ZERO : option(WAIT))
        .holdTimeout(option(HOLD_TIMEOUT)).ttl(option(TTL)).build();
    try (SignalForwarding signals = SignalForwarding.install();
        LockClient client = Backends.connect(option(BACKEND), options)) {
      CompletableFuture<Lease> pending = acquire(client);
      signals.sendTo(signal -> pending.cancel(true));
      try (Lease lease = pending.get()) {
        if (signals.first().isPresent()) {
          return signals.first().get().exitStatus();
        }
        return run(lease, signals);
      } catch (CancellationException e) {
        return signals.first().orElseThrow().exitStatus();
      } catch (ExecutionException e) {
        throw explained(e.getCause(), client);
      }
    }
  }

  /** KEY and CMD, from the words after the options and --key. */
  LockKey.Command line() {
    return LockKey.command(spec, keyOptions(), words(), dashesBeforeWords());
  }

  /** The words after the options: KEY and CMD, or with --key, CMD alone. */
  private List<String> words() {
    List<String> words = new ArrayList<>();
    String key = spec.positionalParameters().get(0).getValue();
    if (key != null) {
      words.add(key);
    }
    List<String> command = spec.positionalParameters().get(1).getValue();
    if (command != null) {
      words.addAll(command);
    }
    return words;
  }

  /**
   * Whether the words after the options came after a {@code --}: picocli drops a {@code --} that ends the options,
   * and keeps one after the first word, so only the command line as written tells {@code --key a -- b -- c} (run
   * {@code b -- c}) from {@code --key a b -- c} (the key given twice).
   */
  private boolean dashesBeforeWords() {
    List<String> written = spec.commandLine().getParseResult().originalArgs();
    int first = written.size() - words().size();
    return first > 0 && written.get(first - 1).equals("--");
  }

  /** Refuses an option's value outside what the command takes, as a usage error that names the option. */
  private void checkRanges() {
    Duration waitTime = option(WAIT);
    if (flag(NONBLOCK) && waitTime != null) {
      throw new ParameterException(spec.commandLine(), "-n/--nonblock is --wait 0: give one of them, not both");
    }
    if (waitTime != null) {
      OptionRange.check(spec, WAIT, waitTime, Duration.ZERO, OptionRange.MAX_DURATION);
    }
    OptionRange.check(spec, CONFLICT_EXIT_CODE, conflictExitCode(), 0, 255);
    Duration holdTimeout = option(HOLD_TIMEOUT);
    if (holdTimeout != null) {
      OptionRange.check(spec, HOLD_TIMEOUT, holdTimeout, Duration.ofMillis(1), OptionRange.MAX_DURATION);
    }
    OptionRange.check(spec, TTL, option(TTL), LockOptions.MIN_TTL, OptionRange.MAX_DURATION);
    OptionRange.check(spec, KILL_AFTER, option(KILL_AFTER), Duration.ZERO, OptionRange.MAX_DURATION);
    String onRevoke = option(ON_REVOKE);
    if (!new OnRevokeActions().contains(onRevoke)) {
      throw new ParameterException(spec.commandLine(), "--on-revoke takes term or ignore, not '" + onRevoke + "'");
    }
    Integer permits = option(PERMITS);
    if (permits != null) {
      OptionRange.check(spec, PERMITS, permits, 1, Integer.MAX_VALUE);
    }
    if (keys.size() > 1 && notExclusive()) {
      throw new ParameterException(spec.commandLine(), notExclusiveOption() + " takes one key,"
          + " but --key was given " + keys.size() + " times: several keys are taken together as exclusive locks only");
    }
  }

  /**
   * What failed the acquisition, said for the command line: a primitive the store's compat mode refuses is a usage
   * error of the option that asked for it; a timeout says who holds the lock, so that a holder nothing frees (a
   * peer's entry without expiry) shows as the reason.
   */
  private RuntimeException explained(Throwable failure, LockClient client) {
    if (failure instanceof UnsupportedOperationException refused && notExclusive()) {
      return new ParameterException(spec.commandLine(), notExclusiveOption() + " is not"
          + " available here: " + refused.getMessage());
    }
    if (failure instanceof LockTimeoutException timeout) {
      for (String key : keys) {
        LockStatus status;
        try {
          status = client.status(key);
        } catch (RuntimeException unreadable) {
          return timeout;
        }
        if (status.isHeld()) {
          return new LockTimeoutException(timeout.getMessage() + (keys.size() > 1 ? " '" + key + "'" : " It")
              + " is " + StatusFormat.holderClause(status, Backends.hasSessions(client)) + ".");
        }
      }
      return timeout;
    }
    return failure instanceof RuntimeException cause ? cause : new IllegalStateException(failure);
  }

  /** Starts taking what the mode asks for: the lock, its read side, a permit, or several locks together. */
  private CompletableFuture<Lease> acquire(LockClient client) {
    if (keys.size() > 1) {
      return client.multiLock(keys).acquireAsync();
    }
    String key = keys.get(0);
    try {
      Integer permits = option(PERMITS);
      if (permits != null) {
        return client.semaphore(key, permits).acquireAsync();
      }
      return flag(SHARED) ? client.readWriteLock(key).readLock().acquireAsync() : client.lock(key).acquireAsync();
    } catch (UnsupportedOperationException refused) {
      throw explained(refused, client);
    }
  }

  /**
   * How long the command gets between SIGTERM and SIGKILL when baton died: {@code --kill-after}, but at most a third
   * of the ttl. The lock outlives a dead baton by two thirds of the ttl at least (it was renewed every third), so
   * the command is gone before anyone else can hold it, however long {@code --kill-after} is.
   */
  private Duration graceAfterDeath() {
    Duration killAfter = option(KILL_AFTER);
    // Not Duration.dividedBy, which divides in BigDecimal: its class initialization costs Java 25 about 10 ms. The
    // ttl is a year at most, whose nanoseconds fit a long.
    Duration third = Duration.ofNanos(this.<Duration>option(TTL).toNanos() / 3);
    return killAfter.compareTo(third) < 0 ? killAfter : third;
  }

  /** Runs the command under {@code lease} and returns baton's exit status. */
  private int run(Lease lease, SignalForwarding signals) throws InterruptedException {
    RevokeForwarding revokes = new RevokeForwarding();
    if (ON_REVOKE_TERM.equals(option(ON_REVOKE))) {
      passRequestsOn(lease, revokes);
    }
    ChildProcess child;
    try {
      child = ChildProcess.start(command, Map.of("BATON_KEY", lease.key(),
          "BATON_FENCING_TOKEN", Long.toString(lease.fencingToken()),
          "BATON_KEYS", String.join("\n", lease.keys()),
          "BATON_FENCING_TOKENS", String.join("\n", lease.keys().stream().map(k -> Long.toString(lease.fencingToken(k)))
              .toList()),
          "BATON_BACKEND", Redaction.withoutSecrets(option(BACKEND))), Credentials.VARIABLES, option(KILL_AFTER),
          graceAfterDeath());
    } catch (CannotRunException e) {
      say(e.getMessage());
      return e.exitStatus();
    }
    signals.sendTo(child::signal);
    revokes.started(child);
    AtomicReference<LostReason> lost = new AtomicReference<>();
    lease.onLost(reason -> {
      lost.set(reason);
      child.stop();
    });
    ChildProcess.Exit exit = child.waitFor();
    if (exit.leftRunning() > 0) {
      say("the command left " + exit.leftRunning() + (exit.leftRunning() == 1 ? " process running; stopped it"
          : " processes running; stopped them") + " before releasing " + locks() + ".");
    }
    if (lost.get() != null) {
      say("lost " + locks() + " while the command ran (" + lost.get() + "); stopped it (its status: "
          + exit.status() + ").");
      return ExitCodes.LOCK_LOST;
    }
    return exit.status();
  }

  /** How messages name what the command runs under: {@code the lock 'a'}, or {@code the locks 'a', 'b'}. */
  private String locks() {
    return (keys.size() == 1 ? "the lock '" : "the locks '") + String.join("', '", keys) + "'";
  }

  /** Sends CMD SIGTERM when someone asks the holder to release the lock; says so if the store cannot tell us. */
  private void passRequestsOn(Lease lease, RevokeForwarding revokes) {
    try {
      lease.onReleaseRequested(() -> {
        say("asked to release " + locks() + "; sending SIGTERM to the command.");
        revokes.asked();
      });
    } catch (RuntimeException e) {
      say("cannot hear requests to release " + locks() + " (" + e.getMessage() + "); --on-revoke term will"
          + " not stop the command.");
    }
  }

  /** Prints one line on stderr, as every message of baton's own, the key in it printable. */
  private void say(String message) {
    spec.commandLine().getErr().println("baton: " + Printable.line(message));
    spec.commandLine().getErr().flush();
  }
}
