package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton revoke}: asks the holders of a lock to let go. */
@Command(
    name = "revoke",
    customSynopsis = {"baton revoke [-b URI] KEY", "       baton revoke [-b URI] --key KEY"},
    description = {"Asks every holder of a lock to release it.",
        "Tells each current holder of KEY (a lock's, each reader, each permit, a leader), in whichever process, and"
            + " prints how many were asked. A request is a hint: a holder keeps the lock unless its code lets go (a"
            + " baton exec run with --on-revoke term passes it on to its command as SIGTERM). Nothing waits for"
            + " the release: follow with baton status, or baton exec -w to take the lock once it is free."},
    footer = {"", "Exit status: 0 if at least one holder was asked; 1 if KEY is free (no one was asked); 64 bad usage"
        + " (or a store that cannot deliver requests: compat=redisson, compat=etcd); 69 backend unreachable; 77"
        + " refused by the backend.",
        "", "Examples:",
        "  baton revoke -b redis://127.0.0.1:6379 nightly-report",
        "  baton revoke nightly-report && baton exec -w 60 nightly-report ./report.sh",
        "  baton revoke --key nightly-report    # the key as an option"})
final class RevokeCommand implements Callable<Integer> {
  /** The exit status when the key is free: no holder to ask. */
  static final int NO_HOLDER = 1;

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

  @Override
  public Integer call() {
    String key = LockKey.of(spec, keyOption, keyArgument);
    try (LockClient client = Backends.connect(backend, LockOptions.defaults())) {
      int asked;
      try {
        asked = client.requestRelease(key);
      } catch (UnsupportedOperationException refused) {
        throw new ParameterException(spec.commandLine(), refused.getMessage());
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(asked == 0 ? Printable.line("'" + key + "' is free: no holder to ask.")
          : Printable.line("asked " + asked + (asked == 1 ? " holder" : " holders") + " of '" + key
              + "' to release it."));
      out.flush();
      return asked == 0 ? NO_HOLDER : ExitCodes.OK;
    }
  }
}
