package dev.baton.cli;

import dev.baton.BackendUnavailableException;
import dev.baton.LockLostException;
import dev.baton.LockTimeoutException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code baton} command: the entry point, the subcommands, and how errors turn into one line and an exit status. */
@Command(
    name = "baton",
    mixinStandardHelpOptions = true,
    version = "baton 0.1.0-SNAPSHOT",
    description = "Distributed locks on Redis, ZooKeeper and etcd from the shell.",
    subcommands = {ExecCommand.class, DemoCommand.class, StatusCommand.class, ServeCommand.class, TortureCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Backends: redis://[:password@]host:port[/db], rediss://..., zookeeper://host:port[,host:port][/chroot],",
        "etcd://host:port[,host:port] (or http://, https://).",
        "BATON_BACKEND in the environment is the default for --backend.",
        "Exit statuses: 64 bad usage, 69 backend unreachable, 74 lock lost, 75 lock not acquired in time."})
public final class BatonCli implements Runnable {
  private static final List<String> VERBOSE = List.of("--verbose", "-v");

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @CommandLine.Option(names = {"-v", "--verbose"}, scope = CommandLine.ScopeType.INHERIT,
      description = "Print stack traces and the libraries' logs.")
  boolean verbose;

  /** Runs {@code baton} with {@code args} and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs {@code baton} with {@code args} and returns its exit status. */
  static int run(String... args) {
    boolean verbose = Arrays.stream(args).anyMatch(VERBOSE::contains);
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      // baton says what went wrong in one line of its own; the libraries' warnings are for --verbose.
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "error");
    }
    CommandLine cli = new CommandLine(new BatonCli());
    // Everything after the first word that is not an option is the command to run, as with flock(1).
    cli.getSubcommands().get("exec").setStopAtPositional(true);
    cli.setExecutionExceptionHandler((e, line, parsed) -> failed(e, line.getErr(), verbose));
    cli.setParameterExceptionHandler((e, ignored) -> {
      PrintWriter err = e.getCommandLine().getErr();
      err.println("baton: " + e.getMessage());
      err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
      return ExitCodes.USAGE;
    });
    return cli.execute(args);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  private static int failed(Exception e, PrintWriter err, boolean verbose) {
    err.println("baton: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
    if (verbose) {
      e.printStackTrace(err);
    }
    err.flush();
    if (e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException) {
      return ExitCodes.USAGE;
    }
    if (e instanceof BackendUnavailableException) {
      return ExitCodes.UNAVAILABLE;
    }
    if (e instanceof LockTimeoutException) {
      return ExitCodes.NOT_ACQUIRED;
    }
    if (e instanceof LockLostException) {
      return ExitCodes.LOCK_LOST;
    }
    return ExitCodes.SOFTWARE;
  }
}
