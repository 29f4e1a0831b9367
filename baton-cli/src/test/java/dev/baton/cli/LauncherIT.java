package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.testkit.RedisServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's {@code bin/baton}, as a contributor runs it, and through it the distribution's launcher. The
 * distribution is built by the time failsafe runs, so the checkout's launcher runs it without building it again.
 * Each run's user cache is a directory of the test's.
 */
@Timeout(60)
class LauncherIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  static Path cache;

  @Test
  void runsTheDemoFromTheRepositoryRoot() throws InterruptedException {
    try (BatonProcess demo = BatonProcess.startLauncher(Map.of("XDG_CACHE_HOME", cache.toString()), "demo",
        "--seconds", "2", "--workers", "2")) {
      assertThat(demo.awaitExit()).as(demo.output()).isZero();
      assertThat(demo.output()).as("the distribution is up to date: no build").doesNotContain("building the command")
          .containsPattern("(?m)^counter +[\\d,]+ = [\\d,]+ acquisitions: no update lost, mutual exclusion held$");
    }
  }

  /**
   * The launcher makes a class-data sharing archive once per build and class path (here Redis's jars alone), in the
   * user's cache (XDG_CACHE_HOME), apart from the run that finds it missing, and starts exec with it, the quick
   * compiler and the serial collector: none of which may say a word on the command's output. The archive is a static
   * one, which holds picocli's classes (compiled with the command's own, for Java 17). Where redis-server is installed
   * (as here), the archive's training locked on a server started apart, so the classes of a client that connected
   * and sent commands are in it too.
   */
  @Test
  @Timeout(180)
  void execPrintsOnlyWhatTheCommandPrintsAndSharesItsClassesFromThen(@TempDir Path dir) throws Exception {
    Path ownCache = dir.resolve("cache");
    Path loaded = dir.resolve("loaded.log");
    execEcho(ownCache, Map.of());
    // Two JVMs make the archive; on a busy machine that takes a minute.
    Path versionCache = ownCache.resolve("baton").resolve(System.getProperty("baton.version"));
    await().atMost(Duration.ofSeconds(150)).until(() -> archives(versionCache).size() == 1);
    execEcho(ownCache, Map.of("BATON_JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded));
    assertThat(Files.readString(loaded)).as("the classes the second run loaded")
        .contains("picocli.CommandLine$Model$CommandSpec source: shared objects file")
        .contains("io.lettuce.core.protocol.Command source: shared objects file");
  }

  private static List<Path> archives(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".jsa")).toList();
    }
  }

  private static void execEcho(Path cache, Map<String, String> environment) throws InterruptedException {
    Map<String, String> withCache = new HashMap<>(environment);
    withCache.put("XDG_CACHE_HOME", cache.toString());
    try (BatonProcess exec = BatonProcess.startLauncher(withCache, "exec", "--backend", redis.uri(), "--key",
        "launched", "--", "echo", "ran")) {
      assertThat(exec.awaitExit()).as(exec.output()).isZero();
      assertThat(exec.output()).isEqualTo("ran");
    }
  }
}
