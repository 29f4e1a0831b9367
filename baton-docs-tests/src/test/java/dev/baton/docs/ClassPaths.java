package dev.baton.docs;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** The class paths examples compile and run against, taken from the tests' own. */
final class ClassPaths {
  /**
   * baton-redis and its runtime dependencies, by artifact name: what an application that depends on baton-redis
   * alone has (Maven resolves them into this module's test class path beside the other stores').
   */
  private static final Set<String> REDIS_ALONE = Set.of("baton-core", "baton-redis", "slf4j-api", "lettuce-core",
      "redis-authx-core", "reactor-core", "reactive-streams", "netty-");

  private ClassPaths() {}

  /** Every store, the starter, the integrations and their dependencies: this JVM's class path, less its tests. */
  static List<Path> everything() {
    return testClassPath().stream().filter(p -> !p.endsWith(Path.of("target", "test-classes"))).toList();
  }

  /** baton-redis, baton-core and their dependencies only. */
  static List<Path> redisAlone() {
    List<Path> redis = testClassPath().stream()
        .filter(p -> REDIS_ALONE.stream().anyMatch(name -> artifactName(p).startsWith(name)))
        .toList();
    for (String module : List.of("baton-core", "baton-redis", "lettuce-core")) {
      if (redis.stream().noneMatch(p -> artifactName(p).startsWith(module))) {
        throw new IllegalStateException(module + " is not on the tests' class path: " + testClassPath());
      }
    }
    return redis;
  }

  /**
   * The name an entry is known by: a jar's file name ({@code lettuce-core-6.8.2.RELEASE.jar}), or for a module of
   * this build its directory's ({@code baton-redis} for {@code baton-redis/target/classes}).
   */
  private static String artifactName(Path entry) {
    if (Files.isDirectory(entry) && entry.endsWith(Path.of("target", "classes"))) {
      return entry.getParent().getParent().getFileName().toString();
    }
    return entry.getFileName().toString();
  }

  private static List<Path> testClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(s -> !s.isBlank())
        .map(Path::of)
        .toList();
  }
}
