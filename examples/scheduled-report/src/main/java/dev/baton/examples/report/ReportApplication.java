package dev.baton.examples.report;

import dev.baton.embedded.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Writes a report on a schedule, on one instance per tick. Started with {@code --baton.backend=URI}, it is one
 * instance among those that share that store. Started without, it starts a ZooKeeper server in the process and two
 * instances on it, to watch them share the work.
 */
@SpringBootApplication
@EnableScheduling
public class ReportApplication {

  public static void main(String[] args) {
    if (Arrays.stream(args).anyMatch(arg -> arg.startsWith("--baton.backend=")) || System.getenv("BATON_BACKEND") != null) {
      new SpringApplicationBuilder(ReportApplication.class).run(args);
      return;
    }
    EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper();
    zooKeeper.start();
    String backend = "--baton.backend=zookeeper://" + zooKeeper.connectString();
    List<ConfigurableApplicationContext> instances = new ArrayList<>();
    for (String instance : new String[] {"A", "B"}) {
      instances.add(new SpringApplicationBuilder(ReportApplication.class).registerShutdownHook(false)
          .run(append(args, backend, "--report.instance=" + instance)));
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      instances.forEach(ConfigurableApplicationContext::close);
      zooKeeper.stop();
    }, "report-shutdown"));
  }

  private static String[] append(String[] args, String... more) {
    String[] all = Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
