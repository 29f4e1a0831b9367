package consumer.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One instance of the application: a JVM of its own on the application's runtime class path (the test's libraries
 * are not on it), started as a deployment starts it, with its output in a file under target/instances.
 */
final class Instance implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final String STARTED = "Started " + NightlyReportApplication.class.getSimpleName();
  private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
  /** What no instance that runs well prints: a warning, an error, or a stack trace. */
  private static final Pattern TROUBLE = Pattern.compile("WARN|SEVERE|ERROR|Exception|^\\s+at ");
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String name;
  private final Process process;
  private final Path output;

  private Instance(String name, Process process, Path output) {
    this.name = name;
    this.process = process;
    this.output = output;
  }

  /**
   * Starts an instance named {@code name} (its report.instance) that records its report's runs in {@code runs},
   * on a free HTTP port, with these command-line arguments ({@code --property=value}) besides.
   */
  static Instance start(String name, Path runs, String... arguments) throws IOException {
    Path directory = Path.of(System.getProperty("consumer.instances"));
    Files.createDirectories(directory);
    Path output = directory.resolve(name + ".log");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-cp", classPath(), NightlyReportApplication.class.getName(),
        "--server.port=0", "--report.instance=" + name, "--report.runs=" + runs));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    return new Instance(name, process, output);
  }

  private static String classPath() throws IOException {
    String dependencies = Files.readString(Path.of(System.getProperty("consumer.runtime-class-path"))).strip();
    return System.getProperty("consumer.classes") + File.pathSeparator + dependencies;
  }

  /** Waits until the application has started; fails with its output if it stopped instead. */
  Instance awaitStarted() {
    await().atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(100))
        .until(() -> !process.isAlive() || output().contains(STARTED));
    assertThat(output()).as("the output of %s, which should have started", name).contains(STARTED);
    return this;
  }

  /** The HTTP port the instance listens on. */
  int port() {
    Matcher port = PORT.matcher(output());
    assertThat(port.find()).as("%s printed its port", name).isTrue();
    return Integer.parseInt(port.group(1));
  }

  /** GET of {@code path} on the instance: the status code, a space and the body. */
  String get(String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
        .timeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  /**
   * Stops the instance as a deployment does (SIGTERM: Spring Boot closes the context), prints its output to the
   * test's (where bin/consumer-test looks for warnings), and checks that it printed no warning, error or stack trace.
   */
  void stopCleanly() throws InterruptedException {
    process.destroy();
    boolean stopped = process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    String printed = output();
    printed.lines().forEach(line -> System.out.println("[" + name + "] " + line));
    assertThat(stopped).as("%s stopped within %s of SIGTERM", name, STOP_TIMEOUT).isTrue();
    assertThat(printed.lines().filter(line -> TROUBLE.matcher(line).find()))
        .as("what %s printed that no instance running well prints (all of it in %s)", name, output)
        .isEmpty();
  }

  /**
   * Waits for an instance that cannot start to stop by itself, and returns its output, which is not printed: it is
   * Spring Boot's failure report, an ERROR the test expects.
   */
  String awaitFailedStart() throws InterruptedException {
    boolean stopped = process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    assertThat(stopped).as("%s stopped by itself within %s; its output:%n%s", name, START_TIMEOUT, output()).isTrue();
    assertThat(process.exitValue()).as("the exit status of %s; its output:%n%s", name, output()).isNotZero();
    return output();
  }

  /** Everything the instance printed so far. */
  String output() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kills the instance if a test ended before it stopped it. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
  }
}
