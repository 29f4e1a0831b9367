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
import picocli.CommandLine.Spec;

/** {@code baton status}: who holds a lock now. */
@Command(
    name = "status",
    description = {"Shows whether a lock is held, by whom (its owner id, and the host, pid and",
        "thread that took it, since when), with which fencing token, for how long,",
        "and how many wait."},
    footer = {"", "Examples:",
        "  baton status --backend redis://127.0.0.1:6379 --key nightly-report",
        "  BATON_BACKEND=zookeeper://127.0.0.1:2181 baton status --key orders/42 --json"})
final class StatusCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Mixin
  private HelpOption help;

  @Option(names = "--backend", paramLabel = "URI", defaultValue = "${env:BATON_BACKEND}", description = "The store (default: $BATON_BACKEND).")
  private String backend;

  @Option(names = "--key", required = true, paramLabel = "KEY", description = "The name of the lock.")
  private String key;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  private boolean json;

  @Override
  public Integer call() {
    try (LockClient client = Backends.connect(backend, LockOptions.defaults())) {
      LockStatus status = client.status(key);
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? StatusFormat.json(status) : StatusFormat.text(status, Instant.now(), Backends.hasSessions(client)));
      out.flush();
      return ExitCodes.OK;
    }
  }
}
