package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.RedisServerExtension;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The command's distribution as a user installs it: an archive the build made, unpacked into a directory of its
 * own, its {@code bin/baton} reached through a symlink in another, on a PATH that holds the JDK's {@code bin/} and
 * the few system tools the launcher and {@code exec}'s supervisor use, and no Maven; run from an unrelated directory,
 * with no user cache to write the class-data archive into.
 */
@Timeout(120)
class DistributionIT {
  /** What the launcher (and exec's supervisor, and the commands of these tests) run, beside java. */
  private static final List<String> SYSTEM_TOOLS = List.of("bash", "readlink", "mkdir", "flock", "setsid",
      "setpriv", "sh", "env", "sleep", "cat");
  private static final List<String> TEST_FRAMEWORKS = List.of("junit", "assertj", "awaitility", "byte-buddy",
      "opentest4j", "hamcrest", "mockito", "apiguardian");

  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"tar.gz", "zip"})
  void runsFromTheArchiveAloneThroughASymlinkOnPath(String format) throws Exception {
    Path baton = install(unpack(format));

    try (BatonProcess version = run(baton, "--version")) {
      assertThat(version.awaitExit()).as(version.output()).isZero();
      assertThat(version.output()).isEqualTo("baton " + version());
    }
    try (BatonProcess exec = run(baton, "exec", "--backend", redis.uri(), "--key", "installed", "--", "sh", "-c",
        "echo \"ran under $BATON_KEY\"")) {
      assertThat(exec.awaitExit()).as(exec.output()).isZero();
      assertThat(exec.output()).isEqualTo("ran under installed");
    }
    // A second exec holds the key until its command reads the end of its input, which closing baton's gives it.
    try (BatonProcess holder = run(baton, "exec", "--backend", redis.uri(), "--key", "installed", "--", "sh", "-c",
        "echo holding; cat >/dev/null")) {
      holder.awaitLine("holding");
      try (BatonProcess list = run(baton, "list", "--backend", redis.uri())) {
        assertThat(list.awaitExit()).as(list.output()).isZero();
        assertThat(list.output()).containsPattern("(?m)^installed +1 ");
      }
      holder.process().getOutputStream().close();
      assertThat(holder.awaitExit()).as(holder.output()).isZero();
    }
  }

  @Test
  void holdsTheLicencesTheCompletionAndTheManPageAndNoTestFramework() throws Exception {
    Path home = unpack("tar.gz");
    assertThat(home.resolve("LICENSE")).content().contains("Apache License").contains("Version 2.0, January 2004");
    assertThat(home.resolve("completion/baton.bash")).content().contains("complete -F");
    assertThat(home.resolve("man/man1/baton.1")).content().startsWith(".TH \"BATON\" 1");
    assertThat(home.resolve("man/man1/baton-exec.1")).content().contains(".SH OPTIONS");

    List<String> jars = fileNames(home.resolve("lib")).stream().filter(name -> name.endsWith(".jar")).toList();
    assertThat(jars).contains("baton-cli-" + version() + ".jar", "baton-cli-plain-" + version() + ".jar")
        .noneMatch(jar -> jar.startsWith("picocli-"));
    String thirdParty = Files.readString(home.resolve("THIRD-PARTY.txt"));
    // picocli is compiled into the command's jar (its Java 5 jar would cost the start): named, with its licence.
    assertThat(thirdParty).containsPattern("(?m)^picocli [0-9.]+ \\(info\\.picocli:picocli:[0-9.]+\\), compiled"
        + " from its source into baton-cli-" + Pattern.quote(version()) + "\\.jar\n"
        + "    The Apache Software License, version 2\\.0 - ");
    // Each jar is named as its artifact and version are, less any classifier (the native libraries' several
    // platforms share one entry); the command's own jars are Baton's, under LICENSE.
    for (String jar : jars) {
      if (!jar.equals("baton-cli-" + version() + ".jar") && !jar.equals("baton-cli-plain-" + version() + ".jar")) {
        assertThat(thirdPartyEntries(thirdParty)).as("THIRD-PARTY.txt names " + jar)
            .anyMatch(entry -> jar.equals(entry + ".jar") || jar.startsWith(entry + "-"));
      }
    }
    assertThat(jars.stream().filter(jar -> TEST_FRAMEWORKS.stream().anyMatch(jar::startsWith)))
        .as("test frameworks in lib/").isEmpty();
  }

  /**
   * Each store's class path (lib/STORE.classpath, which the launcher gives a command on that store) is one line of
   * jars of lib/, headed by the command's jar without a manifest class path, with the store's module and its client.
   */
  @Test
  void eachStoresClassPathNamesJarsOfLibAndTheStoresClient() throws Exception {
    Path lib = unpack("tar.gz").resolve("lib");
    Map<String, String> clients = Map.of("redis", "lettuce-core-", "zookeeper", "zookeeper-3", "etcd", "jetcd-core-",
        "postgres", "postgresql-", "mysql", "mariadb-java-client-", "memory", "baton-core-");
    List<String> inLib = fileNames(lib);
    for (Map.Entry<String, String> store : clients.entrySet()) {
      List<String> lines = Files.readAllLines(lib.resolve(store.getKey() + ".classpath"));
      assertThat(lines).as(store.getKey()).hasSize(1);
      List<String> jars = List.of(lines.get(0).split(":"));
      assertThat(jars).as(store.getKey()).startsWith("baton-cli-plain-" + version() + ".jar")
          .doesNotHaveDuplicates().allMatch(inLib::contains, "a jar of lib/")
          .anyMatch(jar -> jar.startsWith(store.getValue()))
          .contains("baton-core-" + version() + ".jar", "baton-connect-" + version() + ".jar")
          .noneMatch(jar -> jar.startsWith("baton-embedded-") || jar.startsWith("baton-servers-"));
    }
  }

  @Test
  void refusesAJavaHomeWithNoJavaSayingWhatToDo() throws Exception {
    Path baton = install(unpack("tar.gz"));
    Path noJdk = Files.createDirectories(dir.resolve("no-jdk"));
    try (BatonProcess refused = BatonProcess.startCommand(dir, Map.of("PATH", path(), "JAVA_HOME",
        noJdk.toString()), List.of(baton.toString(), "--version"))) {
      assertThat(refused.awaitExit()).as(refused.output()).isEqualTo(ExitCodes.UNAVAILABLE);
      assertThat(refused.output()).isEqualTo("baton: JAVA_HOME is " + noJdk + ", which has no bin/java; baton needs"
          + " Java 17 or later: install a JDK (e.g. apt-get install -y openjdk-17-jre-headless) and put its bin/ on"
          + " PATH, or set JAVA_HOME to it");
    }
  }

  /** Unpacks the distribution's archive of this format with the system's tool for it, and returns its top. */
  private Path unpack(String format) throws IOException, InterruptedException {
    Path archive = Path.of(BatonProcess.distribution() + "." + format);
    Path into = Files.createDirectories(dir.resolve("unpacked-" + format));
    List<String> command = format.equals("zip")
        ? List.of("unzip", "-q", archive.toString(), "-d", into.toString())
        : List.of("tar", "-xzf", archive.toString(), "-C", into.toString());
    Process unpacking = new ProcessBuilder(command).inheritIO().start();
    assertThat(unpacking.waitFor()).as(String.join(" ", command)).isZero();
    assertThat(fileNames(into)).containsExactly("baton-" + version());
    return into.resolve("baton-" + version());
  }

  /**
   * Links the unpacked launcher into a bin directory of the test's, and the system tools into another, and makes
   * the user's cache impossible to create.
   */
  private Path install(Path home) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path baton = Files.createSymbolicLink(bin.resolve("baton"), home.resolve("bin/baton"));
    Path tools = Files.createDirectories(dir.resolve("tools"));
    for (String tool : SYSTEM_TOOLS) {
      Files.createSymbolicLink(tools.resolve(tool), onTestsPath(tool));
    }
    assertThat(Stream.of(path().split(File.pathSeparator)).map(Path::of))
        .as("no mvn on the PATH of the runs").noneMatch(directory -> Files.exists(directory.resolve("mvn")));
    // The user's cache is a file, where no directory can be made: the launcher runs without a class-data archive.
    Files.writeString(dir.resolve("cache-is-a-file"), "");
    return baton;
  }

  /** Runs {@code baton ARGS} as a shell finds it, on the PATH of the run (Java would look it up on its own). */
  private BatonProcess run(Path baton, String... args) {
    List<String> command = new ArrayList<>(List.of(dir.resolve("tools/bash").toString(), "-c",
        "exec " + baton.getFileName() + " \"$@\"", baton.getFileName().toString()));
    command.addAll(List.of(args));
    return BatonProcess.startCommand(dir, Map.of("PATH", path(), "JAVA_HOME", "", "XDG_CACHE_HOME",
        dir.resolve("cache-is-a-file").toString(), "HOME", dir.toString()), command);
  }

  private String path() {
    return String.join(File.pathSeparator, dir.resolve("bin").toString(), dir.resolve("tools").toString(),
        Path.of(System.getProperty("java.home"), "bin").toString());
  }

  private static Path onTestsPath(String tool) {
    return Stream.of(System.getenv("PATH").split(File.pathSeparator)).map(directory -> Path.of(directory, tool))
        .filter(Files::isExecutable).findFirst()
        .orElseThrow(() -> new IllegalStateException(tool + " is not on the PATH of the tests; install it"));
  }

  private static List<String> thirdPartyEntries(String thirdParty) {
    return thirdParty.lines().filter(line -> line.matches("\\S+\\.jar \\(.*\\)"))
        .map(line -> line.substring(0, line.indexOf(".jar ("))).toList();
  }

  private static List<String> fileNames(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    }
  }

  private static String version() {
    return System.getProperty("baton.version");
  }
}
