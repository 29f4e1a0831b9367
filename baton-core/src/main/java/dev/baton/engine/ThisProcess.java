package dev.baton.engine;

import dev.baton.LockHolder;
import dev.baton.LockHolder.MultiLock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** The host and process this JVM is, as lock holders name them; the host is looked up once, on first use. */
final class ThisProcess {
  private static final Path LINUX_HOSTNAME = Path.of("/proc/sys/kernel/hostname");

  private ThisProcess() {}

  /** The calling thread of this process, now, holding a key of {@code multiLock} if it is one. */
  static LockHolder currentThread(Optional<MultiLock> multiLock) {
    return new LockHolder(Host.NAME, ProcessHandle.current().pid(), nameOf(Thread.currentThread()), Instant.now(),
        Duration.ZERO, multiLock);
  }

  /**
   * The thread's name, or {@code virtual-ID} for a thread without one: the JDK names every platform thread, and leaves
   * a virtual thread unnamed unless its builder names it.
   */
  private static String nameOf(Thread thread) {
    String name = thread.getName();
    return name.isEmpty() ? "virtual-" + thread.getId() : name;
  }

  /** Holds the host name, found when first asked for. */
  private static final class Host {
    static final String NAME = lookUp();

    /**
     * The kernel's name for the host where there is one to read, which needs no name service; else the name
     * service's, which may take a moment once; else "unknown".
     */
    private static String lookUp() {
      try {
        String name = Files.readString(LINUX_HOSTNAME, StandardCharsets.UTF_8).strip();
        if (!name.isEmpty()) {
          return name;
        }
      } catch (IOException | RuntimeException notLinux) {
        // Read the name service's instead.
      }
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return "unknown";
      }
    }
  }
}
