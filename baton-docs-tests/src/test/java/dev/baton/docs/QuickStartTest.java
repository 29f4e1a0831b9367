package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first program runs as a reader would run it, in a JVM of its own on baton-redis's class path alone,
 * against a Redis the test kit starts in place of {@code redis://localhost:6379}.
 */
class QuickStartTest {
  private static final String README_ADDRESS = "redis://localhost:6379";
  /** Generous: a JVM's start, a connect, a lock and a release. The test never waits longer for a hung program. */
  private static final long BOUND_SECONDS = 120;

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path output;

  @Test
  void theQuickStartTakesTheLockPrintsItsTokenAndReleasesIt() throws IOException, InterruptedException {
    JavaExample readme = ReadmeFrontDoorTest.firstExample();
    assertThat(readme.source()).as("the address the quick start connects to").contains(README_ADDRESS);
    JavaExample here =
        new JavaExample(readme.page(), readme.line(), readme.source().replace(README_ADDRESS, redis.uri()));
    Path classes = Files.createDirectories(output.resolve("classes"));
    List<Path> classPath = ClassPaths.redisAlone();
    assertThat(new ExampleCompiler(classPath).compile(here, classes)).isEmpty();

    Path stdout = output.resolve("stdout");
    Path stderr = output.resolve("stderr");
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classes + File.pathSeparator
            + classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
        here.typeName());
    Process program =
        new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    boolean ended = program.waitFor(BOUND_SECONDS, TimeUnit.SECONDS);
    if (!ended) {
      program.destroyForcibly().waitFor();
    }

    String printed = Files.readString(stdout, StandardCharsets.UTF_8);
    String why = "the quick start printed:\n" + printed + "\nand on stderr:\n" + Files.readString(stderr);
    assertThat(ended).as("the quick start ended within %d s; %s", BOUND_SECONDS, why).isTrue();
    assertThat(program.exitValue()).as(why).isZero();
    assertThat(printed).as(why).containsPattern("holding orders/42 with fencing token [1-9][0-9]*\\R")
        .contains("released orders/42");
    assertThat(redis.command("EXISTS", "baton:lock:orders/42")).as("the lock's hash after the release").isEqualTo(0L);
  }
}
