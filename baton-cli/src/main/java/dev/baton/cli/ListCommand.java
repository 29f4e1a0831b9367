package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.LockStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code baton list}: the locks held now, and who holds each. */
@Command(
    name = "list",
    description = {"Lists the locks held now, and who holds each.",
        "Sorted by key: who holds each (host, pid, thread), for how long, its fencing token, how many wait, and its"
            + " ttl left. AGE counts from the holder's clock to this machine's."},
    footer = {"", "Examples:",
        "  baton list -b redis://127.0.0.1:6379",
        "  baton list -b zookeeper://127.0.0.1:2181 --prefix orders/ --limit 20",
        "  BATON_BACKEND=etcd://127.0.0.1:2379 baton list --prefix nightly- --json"})
final class ListCommand implements Callable<Integer> {
  private static final int DEFAULT_LIMIT = 100;

  @Spec
  private CommandSpec spec;

  @Mixin
  private HelpOption help;

  @Option(names = {"-b", "--backend"}, paramLabel = "URI", defaultValue = "${env:" + Backends.ENV + "}",
      description = Backends.OPTION_HELP)
  private String backend;

  @Option(names = "--prefix", paramLabel = "P", defaultValue = "", description = "Only keys that start with P (default: every key).")
  private String prefix;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "" + DEFAULT_LIMIT,
      description = "At most N locks, the first N by key (default: ${DEFAULT-VALUE}, at most " + LockClient.MAX_LIST_LIMIT + ").")
  private int limit;

  @Option(names = "--json", description = "Print one JSON array of the locks, as baton status --json prints each.")
  private boolean json;

  @Override
  public Integer call() {
    OptionRange.check(spec, "--limit", limit, 1, LockClient.MAX_LIST_LIMIT);
    try (LockClient client = Backends.connect(backend, LockOptions.defaults())) {
      List<LockStatus> locks = client.list(prefix, limit);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(StatusFormat.json(locks));
      } else if (locks.isEmpty()) {
        out.println(prefix.isEmpty() ? "No lock is held." : "No lock is held under '" + Printable.value(prefix) + "'.");
      } else {
        out.println(ListFormat.table(locks, Instant.now(), Backends.hasSessions(client)));
        if (locks.size() == limit) {
          out.println("(the first " + limit + " by key; more may be held: raise --limit or narrow --prefix)");
        }
      }
      out.flush();
      return ExitCodes.OK;
    }
  }
}
