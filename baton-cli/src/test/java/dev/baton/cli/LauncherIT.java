package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.testkit.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/baton} run from the repository's root, as the README tells a newcomer to. The jar is built by the
 * time failsafe runs, so the launcher runs it without building it again.
 */
@Timeout(60)
class LauncherIT {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Test
  void runsTheDemoFromTheRepositoryRoot() throws InterruptedException {
    try (BatonProcess demo = BatonProcess.startLauncher("demo", "--seconds", "2", "--workers", "2")) {
      assertThat(demo.awaitExit()).as(demo.output()).isZero();
      assertThat(demo.output()).as("the jar is up to date: no build").doesNotContain("building the command")
          .containsPattern("(?m)^counter +[\\d,]+ = [\\d,]+ acquisitions: no update lost, mutual exclusion held$");
    }
  }

  /**
   * The launcher makes a class-data sharing archive once per build of the jar, apart from the run that finds it
   * missing, and starts exec with it, the quick compiler and the serial collector: none of which may say a word on
   * the command's output. The archive is a static one, which holds picocli's classes although they are compiled
   * for Java 5. Where redis-server is installed (as here), the archive's training locked on a server of its own, so
   * the classes of a client that connected and sent commands are in it too.
   */
  @Test
  @Timeout(180)
  void execPrintsOnlyWhatTheCommandPrintsAndSharesItsClassesFromThen(@TempDir Path dir) throws Exception {
    Path jar = Path.of(System.getProperty("baton.jar"));
    Path archive = jar.resolveSibling("baton.jsa");
    Path loaded = dir.resolve("loaded.log");
    execEcho(Map.of());
    // Two JVMs make the archive; on a busy machine that takes a minute.
    await().atMost(Duration.ofSeconds(150)).until(() -> Files.isRegularFile(archive)
        && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) >= 0);
    execEcho(Map.of("BATON_JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded));
    assertThat(Files.readString(loaded)).as("the classes the second run loaded")
        .contains("picocli.CommandLine$Model$CommandSpec source: shared objects file")
        .contains("io.lettuce.core.protocol.Command source: shared objects file");
  }

  private static void execEcho(Map<String, String> environment) throws InterruptedException {
    try (BatonProcess exec = BatonProcess.startLauncher(environment, "exec", "--backend", redis.uri(), "--key",
        "launched", "--", "echo", "ran")) {
      assertThat(exec.awaitExit()).as(exec.output()).isZero();
      assertThat(exec.output()).isEqualTo("ran");
    }
  }
}
