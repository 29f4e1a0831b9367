package consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The jars this application runs on are the ones Baton's build tested each backend with: every dependency that the
 * backend module resolves in Baton's own build (the lists bin/consumer-test writes) is here at the same version, and
 * no other version of Netty, gRPC, Vert.x, jetcd or protobuf is.
 */
class ClassPathTest {
  private static final List<String> FAMILIES = List.of("io.netty:", "io.grpc:", "io.vertx:", "io.etcd:", "com.google.protobuf:");

  @Test
  void theClassPathHasTheVersionsBatonsBuildTested() throws IOException {
    Map<String, TreeSet<String>> onClassPath = classPath(Path.of(System.getProperty("consumer.repository")));
    Map<String, TreeSet<String>> tested = tested(System.getProperty("consumer.expected"));

    List<String> problems = new ArrayList<>();
    tested.forEach((artifact, versions) -> {
      if (versions.size() > 1) {
        problems.add(artifact + ": the backends' builds test different versions " + versions);
      } else if (!artifact.startsWith("dev.baton:") && !versions.equals(onClassPath.get(artifact))) {
        problems.add(artifact + ": tested " + versions.first() + ", here " + onClassPath.get(artifact));
      }
    });
    onClassPath.forEach((artifact, versions) -> {
      if (FAMILIES.stream().anyMatch(artifact::startsWith) && !tested.containsKey(artifact)) {
        problems.add(artifact + ": here " + versions + ", which Baton's build does not resolve");
      }
    });
    assertThat(problems).as("artifacts whose version differs from the one Baton's build tested").isEmpty();
  }

  /** groupId:artifactId[:classifier] to the versions of the jars from the local repository on this JVM's class path. */
  private static Map<String, TreeSet<String>> classPath(Path repository) {
    Path root = repository.toAbsolutePath().normalize();
    Map<String, TreeSet<String>> artifacts = new TreeMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path jar = Path.of(entry).toAbsolutePath().normalize();
      if (!jar.startsWith(root) || !jar.toString().endsWith(".jar")) {
        continue;
      }
      Path path = root.relativize(jar);
      int names = path.getNameCount();
      String version = path.getName(names - 2).toString();
      String artifactId = path.getName(names - 3).toString();
      String groupId = path.subpath(0, names - 3).toString().replace(File.separatorChar, '.');
      String file = path.getFileName().toString();
      String prefix = artifactId + "-" + version + "-";
      String classifier = file.startsWith(prefix) ? ":" + file.substring(prefix.length(), file.length() - ".jar".length()) : "";
      artifacts.computeIfAbsent(groupId + ":" + artifactId + classifier, a -> new TreeSet<>()).add(version);
    }
    assertThat(artifacts).as("jars from %s on the class path", root).isNotEmpty();
    return artifacts;
  }

  /** The same, from the output of dependency:list in Baton's build, one file per backend module this application uses. */
  private static Map<String, TreeSet<String>> tested(String files) throws IOException {
    Map<String, TreeSet<String>> artifacts = new TreeMap<>();
    for (String file : files.split(",")) {
      for (String line : Files.readAllLines(Path.of(file))) {
        String[] parts = line.trim().split("\\s+")[0].split(":");
        if (parts.length == 5 || parts.length == 6) { // groupId:artifactId:type[:classifier]:version:scope
          String classifier = parts.length == 6 ? ":" + parts[3] : "";
          artifacts.computeIfAbsent(parts[0] + ":" + parts[1] + classifier, a -> new TreeSet<>()).add(parts[parts.length - 2]);
        }
      }
    }
    assertThat(artifacts).as("dependencies listed in %s", files).isNotEmpty();
    return artifacts;
  }
}
