package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.EmbeddedZooKeeperExtension;
import dev.baton.testkit.EtcdServerExtension;
import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's launcher gives a command on a store the command line names that store's jars alone
 * ({@code lib/STORE.classpath}), and any other command line the whole class path. Each run prints its JVM's class
 * path ({@code -XshowSettings:properties} in BATON_JAVA_OPTS); no run makes a class-data archive (the user's cache is
 * a file).
 */
@Timeout(120)
class StoreClassPathIT {
  private static final Pattern CLASS_PATH =
      Pattern.compile("(?m)^ {4}java\\.class\\.path = (.*)$((?:\\R {8}\\S.*$)*)");

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @RegisterExtension
  static final EmbeddedZooKeeperExtension zookeeper = new EmbeddedZooKeeperExtension();

  @TempDir
  static Path dir;

  @BeforeAll
  static void noUserCache() throws IOException {
    Files.writeString(dir.resolve("cache-is-a-file"), "");
  }

  @Test
  void execOnRedisRunsOnRedissJarsAlone() throws InterruptedException {
    Run run = launch(Map.of(), "exec", "--backend", redis.uri(), "--key", "store-cp", "--", "echo", "ran");

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.commandOutput()).isEqualTo("ran");
    assertJars(run, List.of("baton-cli-plain-", "baton-redis-", "lettuce-core-"),
        List.of("zookeeper-", "jetcd-", "postgresql-", "mariadb-", "baton-cli-" + version()));
  }

  @Test
  void execStatusAndListOnEtcdRunOnEtcdsJarsAlone() throws InterruptedException {
    String backend = etcd.endpoint();
    Run exec = launch(Map.of(), "exec", "-b", backend, "--ttl", "5s", "--key", "store-cp", "--", "echo", "ran");
    Run status = launch(Map.of(), "status", "--key", "store-cp", "--backend=" + backend);
    Run list = launch(Map.of(Backends.ENV, backend), "list", "--limit", "5");

    for (Run run : List.of(exec, status, list)) {
      assertThat(run.status()).as(run.output()).isZero();
      assertJars(run, List.of("baton-etcd-", "jetcd-core-"), List.of("lettuce-", "zookeeper-"));
    }
    assertThat(exec.commandOutput()).isEqualTo("ran");
  }

  @Test
  void execOnZooKeeperFromTheEnvironmentRunsOnZooKeepersJarsAlone() throws InterruptedException {
    Run run = launch(Map.of(Backends.ENV, "zookeeper://" + zookeeper.connectString()), "exec", "-x", "store-cp",
        "echo", "ran");

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.commandOutput()).isEqualTo("ran");
    assertJars(run, List.of("baton-zookeeper-", "zookeeper-3"), List.of("lettuce-", "jetcd-", "baton-embedded-"));
  }

  @Test
  void theDemoInMemoryRunsOnBatonsJarsAloneAndExecRefusesMemoryThere() throws InterruptedException {
    Run demo = launch(Map.of(), "demo", "--backend", "memory://", "--seconds", "1", "--workers", "2");
    Run exec = launch(Map.of(), "exec", "--backend", "memory://", "--key", "store-cp", "--", "true");

    assertThat(demo.status()).as(demo.output()).isZero();
    assertThat(demo.output()).containsPattern("(?m)^counter .* mutual exclusion held$");
    assertThat(exec.status()).as(exec.output()).isEqualTo(ExitCodes.USAGE);
    assertThat(exec.commandOutput()).contains("is a store inside this process");
    for (Run run : List.of(demo, exec)) {
      assertJars(run, List.of("baton-core-", "baton-connect-"), List.of("lettuce-", "jetcd-", "zookeeper-"));
    }
  }

  @Test
  void aCommandLineTheLauncherCannotReadRunsOnTheWholeClassPath() throws InterruptedException {
    // -xn is -x -n to picocli, and no option the launcher knows: it cannot tell what the next word is.
    Run run = launch(Map.of(), "exec", "-xn", "--backend", redis.uri(), "--key", "store-cp", "--", "echo", "ran");

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.commandOutput()).isEqualTo("ran");
    assertThat(run.classPath()).containsExactly("baton-cli-" + version() + ".jar");
  }

  @Test
  void theWordsOfExecsCommandAreNotBatons() throws InterruptedException {
    Run run = launch(Map.of(Backends.ENV, redis.uri()), "exec", "store-cp", "echo", "-b", "memory://");

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.commandOutput()).isEqualTo("-b memory://");
    assertJars(run, List.of("lettuce-core-"), List.of("zookeeper-"));
  }

  /** Runs the distribution's bin/baton with these arguments, printing its JVM's properties, to its end. */
  private static Run launch(Map<String, String> environment, String... args) throws InterruptedException {
    Map<String, String> withSettings = new HashMap<>(environment);
    withSettings.put("BATON_JAVA_OPTS", "-XshowSettings:properties");
    withSettings.put("XDG_CACHE_HOME", dir.resolve("cache-is-a-file").toString());
    List<String> command = new ArrayList<>(List.of(BatonProcess.distribution().resolve("bin/baton").toString()));
    command.addAll(List.of(args));
    try (BatonProcess baton = BatonProcess.startCommand(dir, withSettings, command)) {
      int status = baton.awaitExit();
      return new Run(status, baton.output());
    }
  }

  /** Asserts that the run's class path has a jar named as each of {@code present} starts, and none of {@code absent}. */
  private static void assertJars(Run run, List<String> present, List<String> absent) {
    List<String> jars = run.classPath();
    for (String prefix : present) {
      assertThat(jars).as("the class path of:\n" + run.output()).anyMatch(jar -> jar.startsWith(prefix));
    }
    for (String prefix : absent) {
      assertThat(jars).as("the class path of:\n" + run.output()).noneMatch(jar -> jar.startsWith(prefix));
    }
  }

  private static String version() {
    return System.getProperty("baton.version");
  }

  /** A finished run: its exit status and its output, the JVM's properties first. */
  private record Run(int status, String output) {
    /** The names of the jars on the run's class path, in order. */
    List<String> classPath() {
      Matcher matcher = CLASS_PATH.matcher(output);
      assertThat(matcher.find()).as("java.class.path in:\n" + output).isTrue();
      List<String> jars = new ArrayList<>();
      jars.add(matcher.group(1).strip());
      matcher.group(2).lines().map(String::strip).filter(line -> !line.isEmpty()).forEach(jars::add);
      return jars.stream().map(entry -> Path.of(entry).getFileName().toString()).toList();
    }

    /** What the command printed after the JVM's properties (which end at the first blank line). */
    String commandOutput() {
      int end = output.indexOf("\n\n");
      return (end < 0 ? output : output.substring(end + 2)).strip();
    }
  }
}
