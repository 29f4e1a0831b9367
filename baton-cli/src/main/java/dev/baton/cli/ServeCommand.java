package dev.baton.cli;

import dev.baton.embedded.EmbeddedZooKeeper;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code baton serve}: a ZooKeeper server in this process, for local development. */
@Command(
    name = "serve",
    description = "Runs a ZooKeeper server in the foreground on 127.0.0.1 for local development, until Ctrl-C.",
    footer = {"", "Examples:",
        "  baton serve                              # 127.0.0.1:2181, data thrown away",
        "  baton serve --port 2182 --data-dir ./zk  # data kept in ./zk",
        "  baton demo -b zookeeper://127.0.0.1:2181   # in another terminal"})
final class ServeCommand implements Callable<Integer> {
  @Spec
  private CommandSpec spec;

  @Mixin
  private HelpOption help;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "2181", description = "The port to listen on (default: ${DEFAULT-VALUE}).")
  private int port;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Keep the data in this directory (default: a temporary one, deleted at exit).")
  private Path dataDir;

  @Override
  public Integer call() throws InterruptedException {
    OptionRange.check(spec, "--port", port, 1, 65_535);
    EmbeddedZooKeeper server = new EmbeddedZooKeeper(port, dataDir);
    server.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.stop();
      stopped.countDown();
    }, "baton-serve-stop"));
    PrintWriter out = spec.commandLine().getOut();
    out.println("ZooKeeper serving on " + server.connectString()
        + (dataDir != null ? " with its data in " + dataDir.toAbsolutePath() : " (data thrown away at exit)") + ".");
    out.println("Use it with --backend zookeeper://" + server.connectString() + ". Ctrl-C stops it.");
    out.flush();
    stopped.await();
    return ExitCodes.OK;
  }
}
