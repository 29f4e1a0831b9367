package dev.baton.examples.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.embedded.EmbeddedZooKeeper;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Two instances of the application on one ZooKeeper server write the report once per tick between them. */
@Timeout(60)
class TwoInstancesTest {
  private static final List<Run> runs = new CopyOnWriteArrayList<>();
  private static final List<String> skips = new CopyOnWriteArrayList<>();
  private final EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper();

  @BeforeEach
  void startZooKeeper() {
    runs.clear();
    skips.clear();
    zooKeeper.start();
  }

  @AfterEach
  void stopZooKeeper() {
    zooKeeper.stop();
  }

  @Test
  void eachTickIsWrittenOnceByOneOfTheInstances() {
    try (ConfigurableApplicationContext a = start("A"); ConfigurableApplicationContext b = start("B")) {
      await().atMost(Duration.ofSeconds(20)).until(() -> runs.stream().map(Run::tick).distinct().count() >= 5);
    }
    Map<Instant, List<String>> byTick = runs.stream()
        .collect(Collectors.groupingBy(Run::tick, Collectors.mapping(Run::instance, Collectors.toList())));
    assertThat(byTick).allSatisfy((tick, writers) -> assertThat(writers).as("writers of %s", tick).hasSize(1));
    assertThat(skips).as("the instance that did not write a tick skipped it").isNotEmpty();
  }

  private ConfigurableApplicationContext start(String instance) {
    return new SpringApplicationBuilder(ReportApplication.class, Recording.class).run(
        "--baton.backend=zookeeper://" + zooKeeper.connectString(), "--report.instance=" + instance,
        "--report.cron=* * * * * *", "--report.hold-at-least=600ms");
  }

  /** One report written. */
  record Run(Instant tick, String instance) {}

  /** Records the reports instead of logging them. */
  static class Recording {
    @Bean
    @Primary
    ReportLog recordingLog() {
      return new ReportLog() {
        @Override
        public void written(Instant tick, String instance) {
          runs.add(new Run(tick, instance));
        }

        @Override
        public void skipped(String instance) {
          skips.add(instance);
        }
      };
    }
  }
}
