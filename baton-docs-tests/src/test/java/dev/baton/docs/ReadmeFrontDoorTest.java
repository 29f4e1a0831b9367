package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a newcomer meets first: every store on the first screen, and a whole program soon after. */
class ReadmeFrontDoorTest {
  /** About one screen. */
  private static final int FIRST_SCREEN = 40;
  /** The first Java example starts within these lines. */
  private static final int QUICK_START_BY = 100;

  private static final Path README = MarkdownExamples.root().resolve("README.md");

  @TempDir
  Path output;

  @Test
  void theFirstScreenNamesEveryStore() throws IOException {
    String firstScreen = String.join("\n", Files.readAllLines(README).subList(0, FIRST_SCREEN));

    assertThat(firstScreen).contains("Redis", "ZooKeeper", "etcd", "PostgreSQL", "MySQL");
  }

  @Test
  void theFirstJavaExampleComesEarly() {
    JavaExample first = firstExample();

    assertThat(first.line()).as("the line README.md's first java block starts on").isLessThanOrEqualTo(QUICK_START_BY);
  }

  @Test
  void theFirstJavaExampleCompilesAgainstBatonRedisAlone() {
    List<Path> classPath = ClassPaths.redisAlone();
    assertThat(classPath).noneMatch(p -> p.toString().contains("zookeeper") || p.toString().contains("jetcd")
        || p.toString().contains("postgres") || p.toString().contains("spring"));

    String errors = new ExampleCompiler(classPath).compile(firstExample(), output);

    assertThat(errors).as("README.md's first java block against baton-redis alone").isEmpty();
  }

  static JavaExample firstExample() {
    List<JavaExample> examples = MarkdownExamples.of(README);
    assertThat(examples).as("java blocks of README.md").isNotEmpty();
    return examples.get(0);
  }
}
