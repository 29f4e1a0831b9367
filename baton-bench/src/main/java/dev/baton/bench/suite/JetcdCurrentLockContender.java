package dev.baton.bench.suite;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * jetcd's {@code Lock} on jetcd's current line (the build's {@code jetcd-current.version}), whose Vert.x 5 and Netty
 * 4.2 cannot share this JVM's class path: a JVM of its own runs the loop of {@link JetcdLockContender}, a lease per
 * thread, and the threads of {@link Load}. That JVM runs {@code JetcdLockPeer.java}, a resource compiled when it starts
 * (the source launcher) against the class path of {@code jetcd-current.classpath}, jetcd's jars and their dependencies
 * in the local Maven repository as the build resolved them.
 */
final class JetcdCurrentLockContender implements Contender, Load.Elsewhere {
  private static final String SOURCE = "JetcdLockPeer.java";
  private static final String CLASS_PATH = "jetcd-current.classpath";
  private static final List<String> JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseG1GC",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration ANSWER_MARGIN = Duration.ofSeconds(60);

  private final WorkerProcess peer;

  JetcdCurrentLockContender(String endpoint) throws Exception {
    Path dir = Files.createTempDirectory("baton-bench-jetcd-peer");
    Path source = dir.resolve(SOURCE);
    try {
      Files.writeString(source, resource(SOURCE), StandardCharsets.UTF_8);
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(JVM_OPTIONS);
      command.add("-cp");
      command.add(String.join(File.pathSeparator, classPath()));
      command.add(source.toString());
      command.add(endpoint);
      peer = WorkerProcess.start("The jetcd peer JVM", command);
      try {
        peer.await("READY", START_TIMEOUT);
      } catch (Exception e) {
        peer.close();
        throw e;
      }
    } finally {
      // The source launcher has compiled the file by the time the peer answers, or the peer is gone.
      Files.deleteIfExists(source);
      Files.delete(dir);
    }
  }

  /** Fails: the peer's threads take their locks in the peer's JVM, through {@link #run}, not through a locker here. */
  @Override
  public Locker locker(String key, Hold hold) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " locks in a JVM of its own: it runs whole "
        + "loads (Load.run), not a locker of this JVM.");
  }

  @Override
  public Load.Result run(Hold hold, List<String> keys, Duration duration) throws Exception {
    if (hold != Hold.LOCK) {
      throw hold.unsupportedBy(this);
    }
    String[] ran = peer.call("RUN " + duration.toMillis() + " " + String.join(" ", keys), "RAN",
        duration.plus(ANSWER_MARGIN));
    int cycles = Integer.parseInt(ran[1]);
    Samples waits = new Samples();
    Samples cycleTimes = new Samples();
    for (int i = 0; i < cycles; i++) {
      waits.add(Long.parseLong(ran[4 + i]));
      cycleTimes.add(Long.parseLong(ran[4 + cycles + i]));
    }
    return new Load.Result(cycles, Long.parseLong(ran[2]), waits, cycleTimes, Long.parseLong(ran[3]));
  }

  /** The process id of the peer JVM, whose CPU time a harness may read. */
  long pid() {
    return peer.pid();
  }

  @Override
  public void close() throws Exception {
    try {
      peer.call("CLOSE", "CLOSED", ANSWER_MARGIN);
    } finally {
      peer.close();
    }
  }

  /** The peer JVM's class path: jetcd's current line and its dependencies, as the build resolved them. */
  static List<String> classPath() {
    return List.of(resource(CLASS_PATH).strip().split(File.pathSeparator));
  }

  private static String resource(String name) {
    try (InputStream in = JetcdCurrentLockContender.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("No " + name + " beside " + JetcdCurrentLockContender.class.getName()
            + ": build baton-bench with Maven (mvn package -pl baton-bench -am), which writes it.");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
