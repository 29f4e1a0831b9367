package dev.baton.cli;

import dev.baton.BackendSetupException;
import dev.baton.BackendUnavailableException;
import dev.baton.LockLostException;
import dev.baton.LockTimeoutException;
import dev.baton.PermissionDeniedException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The {@code baton} command: the entry point, the subcommands, and how errors turn into one line and an exit status.
 *
 * <p>baton's own model and exec's are built in code: picocli's reading of annotations (reflection on the classes and
 * their fields, annotation proxies generated at run time) cost an exec 14% of its CPU on Java 25 and 3% on 17
 * (bench/notes.md). The other commands keep their annotations; a run builds the model of the command it names alone.
 */
public final class BatonCli implements Callable<Integer> {
  private static final String VERBOSE = "--verbose";
  private static final String LETTUCE_JFR = "io.lettuce.core.jfr";
  private static final String NETTY_NO_NATIVE = "io.netty.transport.noNative";
  private static final String VERTX_NO_DNS_RESOLVER = "vertx.disableDnsResolver";
  private static final String VERTX_NO_FILE_CACHING = "vertx.disableFileCaching";
  private static final String VERTX_NO_CLASS_PATH_FILES = "vertx.disableFileCPResolving";
  private static final String HELP = "help";
  private static final String JUL_CONFIG_CLASS = "java.util.logging.config.class";
  private static final String JUL_CONFIG_FILE = "java.util.logging.config.file";

  /**
   * The commands by name, in the order help lists them. A run that names its command first gets that one alone:
   * building picocli's model of a command costs its start, and exec, status and list start sooner without the model
   * of the others.
   */
  private static final List<String> COMMANDS = List.of("exec", "demo", "status", "list", "revoke", "serve", "torture",
      HELP);

  private static final String[] FOOTER = {"",
      "Stores: -b/--backend URI on each command, $" + Backends.ENV + " by default:",
      "  Redis       redis://host:port[/db], rediss://... (TLS),",
      "              redis-sentinel://host:port[,host:port][/db]#master,",
      "              rediss-sentinel://..., redis-cluster://host:port[,host:port],",
      "              rediss-cluster://...",
      "  ZooKeeper   zookeeper://host:port[,host:port][/chroot] (or zk://)",
      "  etcd        etcd://host:port[,host:port] (or http://, https:// for TLS)",
      "  PostgreSQL  postgresql://host[:port]/db (or postgres://, jdbc:postgresql://)",
      "  MySQL       mysql://host[:port]/db, mariadb://... (or jdbc:mysql://,",
      "              jdbc:mariadb://)",
      "  In memory   memory://[name], a store inside the process: baton demo only",
      "The password comes from BATON_PASSWORD or BATON_PASSWORD_FILE, the user from",
      "BATON_USER, etcd's TLS files from BATON_TLS_CA, BATON_TLS_CERT, BATON_TLS_KEY.",
      "",
      "Exit statuses: 64 bad usage, 69 backend unreachable, 70 backend not set up",
      "for baton (or another failure), 74 lock lost, 75 lock not acquired in time,",
      "77 refused by the backend (credentials, permissions).",
      "",
      "Examples:",
      "  baton demo                  # see a lock at work, nothing to install",
      "  baton exec -b redis://127.0.0.1:6379 deploy ./deploy.sh",
      "  baton list -b redis://127.0.0.1:6379",
      "  baton revoke -b redis://127.0.0.1:6379 deploy   # ask the holder to let go",
      "  baton exec --help           # each command's options and examples"};

  private final CommandSpec spec;

  private BatonCli() {
    spec = CommandSpec.wrapWithoutInspection(this);
  }

  /** Runs {@code baton} with {@code args} and exits with its status. */
  public static void main(String[] args) {
    TlsContextWarmUp.startFor(args);
    startQuickly();
    System.exit(run(args));
  }

  /**
   * Sets the libraries' system properties that make a short run start sooner, unless they were given (in
   * BATON_JAVA_OPTS): the class-data training run sets them too, so that the archive holds the classes they select.
   */
  static void startQuickly() {
    // Lettuce records its events for Java Flight Recorder where JFR is present, and starting JFR's machinery costs a
    // short command about 70 ms. -Dio.lettuce.core.jfr=true turns it back on.
    defaultProperty(LETTUCE_JFR, "false");
    // Netty's epoll transport (Lettuce's and gRPC's choice where it is present) copies its native library out of the
    // jar into a temporary file and loads it, in every run; Java's NIO transport, which they fall back to, costs the
    // start nothing, and a command's few connections nothing in speed. -Dio.netty.transport.noNative=false turns epoll
    // back on.
    defaultProperty(NETTY_NO_NATIVE, "true");
    // jetcd starts a Vert.x instance for its calls, and Vert.x, as it starts, builds Netty's DNS resolver (reading
    // /etc/resolv.conf and /etc/hosts), makes a cache directory under java.io.tmpdir, removed at exit, and gets ready
    // to read files from the class path: jetcd uses none of them (gRPC resolves etcd's endpoints itself). Without them
    // an etcd exec loads about 120 fewer classes and writes nothing to /tmp.
    defaultProperty(VERTX_NO_DNS_RESOLVER, "true");
    defaultProperty(VERTX_NO_FILE_CACHING, "true");
    defaultProperty(VERTX_NO_CLASS_PATH_FILES, "true");
  }

  private static void defaultProperty(String name, String value) {
    if (System.getProperty(name) == null) {
      System.setProperty(name, value);
    }
  }

  /** Runs {@code baton} with {@code args} on the standard output and error, and returns its exit status. */
  static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /** Runs {@code baton} with {@code args}, printing on {@code out} and {@code err}, and returns its exit status. */
  static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = commandLine(args);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionStrategy(parsed -> {
      quietLibrariesUnless(verbose(parsed));
      return new CommandLine.RunLast().execute(parsed);
    });
    cli.setExecutionExceptionHandler((e, line, parsed) -> failed(e, line, verbose(parsed)));
    cli.setParameterExceptionHandler((e, ignored) -> {
      PrintWriter commandErr = e.getCommandLine().getErr();
      commandErr.println(UsageError.describe(e));
      commandErr.flush();
      return ExitCodes.USAGE;
    });
    return cli.execute(args);
  }

  /**
   * The command line that reads {@code args}: baton with the command they name (every command when they name none),
   * the words after exec's KEY left to CMD.
   */
  static CommandLine commandLine(String... args) {
    CommandLine cli = new CommandLine(model());
    String named = args.length > 0 && COMMANDS.contains(args[0]) && !args[0].equals(HELP) ? args[0] : null;
    for (String name : COMMANDS) {
      if (named == null || named.equals(name)) {
        cli.addSubcommand(name, command(name));
      }
    }
    // @FILE words are CMD's own (curl -d @body.json), not files for baton to read its arguments from.
    cli.setExpandAtFiles(false);
    CommandLine exec = cli.getSubcommands().get("exec");
    if (exec != null) {
      // Everything after the first word that is not an option (KEY) is the command to run, as with flock(1).
      exec.setStopAtPositional(true);
    }
    CommandLine help = cli.getSubcommands().get(HELP);
    if (help != null) {
      help.getCommandSpec().usageMessage().footer("", "Examples:",
          "  baton help exec       # the same as baton exec --help",
          "  baton help            # the same as baton --help");
    }
    return cli;
  }

  /** The model of {@code baton} alone, its options and help: the subcommands are added to it by name. */
  private static CommandSpec model() {
    CommandSpec spec = new BatonCli().spec;
    spec.name("baton").version("baton 0.1.0-SNAPSHOT");
    spec.usageMessage().description("Distributed locks on Redis, ZooKeeper, etcd, PostgreSQL and MySQL from the shell.")
        .footer(FOOTER);
    spec.addOption(OptionSpec.builder("-v", VERBOSE).type(boolean.class).scopeType(CommandLine.ScopeType.INHERIT)
        .description("Print stack traces and the libraries' logs.").build());
    // picocli's standard help options (mixinStandardHelpOptions), which it would read from its own annotations.
    spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class)
        .description("Show this help message and exit.").build());
    spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
        .description("Print version information and exit.").build());
    return spec;
  }

  /** What picocli makes the command {@code name} of: exec's model, or a class whose annotations describe it. */
  private static Object command(String name) {
    return switch (name) {
      case "exec" -> ExecCommand.model();
      case "demo" -> DemoCommand.class;
      case "status" -> StatusCommand.class;
      case "list" -> ListCommand.class;
      case "revoke" -> RevokeCommand.class;
      case "serve" -> ServeCommand.class;
      case "torture" -> TortureCommand.class;
      case HELP -> CommandLine.HelpCommand.class;
      default -> throw new IllegalArgumentException("No command named '" + name + "': name one of " + COMMANDS);
    };
  }

  /** {@code baton} without a command: the usage, on stderr since it is a usage error (64, EX_USAGE). */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  /**
   * Whether {@code --verbose} was given to baton or its command. Only baton's own options count: the words of
   * the command {@code baton exec} runs are parameters, so that {@code -- grep -v x} leaves baton quiet.
   */
  private static boolean verbose(ParseResult parsed) {
    for (ParseResult level = parsed; level != null; level = level.subcommand()) {
      if (level.hasMatchedOption(VERBOSE)) {
        return true;
      }
    }
    return false;
  }

  private static void quietLibrariesUnless(boolean verbose) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      // baton says what went wrong in one line of its own; the libraries' warnings are for --verbose.
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "error");
    }
    // gRPC (etcd) and others log through java.util.logging, whose console handler prints INFO by default: turned
    // off as it starts, if it starts at all (QuietJavaLogging); at once where a configuration of the user's is named.
    if (!verbose) {
      if (System.getProperty(JUL_CONFIG_CLASS) == null && System.getProperty(JUL_CONFIG_FILE) == null) {
        System.setProperty(JUL_CONFIG_CLASS, QuietJavaLogging.class.getName());
      } else {
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.OFF);
      }
    }
  }

  private static int failed(Exception e, CommandLine command, boolean verbose) {
    int status = exitStatus(e);
    String message = e.getMessage() != null ? e.getMessage() : e.toString();
    PrintWriter err = command.getErr();
    if (status == ExitCodes.USAGE) {
      err.println(UsageError.line(command, message));
    } else {
      err.println("baton: " + Printable.line(message.strip().replaceAll("\\s*\\R\\s*", " "))
          + (status == ExitCodes.SOFTWARE && !verbose ? " (run again with --verbose to see where it failed)" : ""));
    }
    if (verbose) {
      // The messages in a trace may quote what the store holds (a key, a holder's name) as well.
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      trace.toString().lines().map(Printable::line).forEach(err::println);
    }
    err.flush();
    return status == ExitCodes.NOT_ACQUIRED && command.getCommand() instanceof ExecCommand exec
        ? exec.conflictExitCode() : status;
  }

  private static int exitStatus(Exception e) {
    if (e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException) {
      return ExitCodes.USAGE;
    }
    if (e instanceof BackendUnavailableException) {
      return ExitCodes.UNAVAILABLE;
    }
    if (e instanceof PermissionDeniedException) {
      return ExitCodes.NO_PERMISSION;
    }
    if (e instanceof BackendSetupException) {
      return ExitCodes.SOFTWARE; // the store answered: not 69, and its message says what to set up
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
