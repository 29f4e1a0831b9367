package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton status}: who holds a lock now. */
@Command(
    name = "status",
    customSynopsis = {"baton status [-b URI] [--json] KEY", "       baton status [-b URI] [--json] --key KEY"},
    description = {"Shows who holds a lock now.",
        "Whether KEY is held, by whom (its owner id, and the host, pid and thread that took it, since when), with"
            + " which fencing token, for how long, and how many wait."},
    footer = {"", "Examples:",
        "  baton status -b redis://127.0.0.1:6379 nightly-report",
        "  BATON_BACKEND=zookeeper://127.0.0.1:2181 baton status orders/42 --json",
        "  baton status --key nightly-report    # the key as an option"})
final class StatusCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Mixin
  private HelpOption help;

  @Option(names = {"-b", "--backend"}, paramLabel = "URI", defaultValue = "${env:" + Backends.ENV + "}",
      description = Backends.OPTION_HELP)
  private String backend;

  @Parameters(arity = "0..1", paramLabel = "KEY", description = "The name of the lock, unless --key gives it.")
  private String keyArgument;

  @Option(names = "--key", paramLabel = "KEY", description = "The name of the lock, as an option.")
  private String keyOption;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  private boolean json;

  @Override
  public Integer call() {
    String key = LockKey.of(spec, keyOption, keyArgument);
    try (LockClient client = Backends.connect(backend, LockOptions.defaults())) {
      LockStatus status = client.status(key);
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? StatusFormat.json(status) : StatusFormat.text(status, Instant.now(), Backends.hasSessions(client)));
      out.flush();
      return ExitCodes.OK;
    }
  }
}
