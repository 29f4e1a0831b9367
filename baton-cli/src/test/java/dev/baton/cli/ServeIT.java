package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lease;
import dev.baton.LockClient;
import dev.baton.zookeeper.ZooKeeperLockClient;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton serve}: a ZooKeeper server a lock client can use, stopped by a signal. */
@Timeout(60)
class ServeIT {
  @Test
  void servesZooKeeperUntilTerminated(@TempDir Path dataDir) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (BatonProcess serve = BatonProcess.start(dataDir, "serve", "--port", Integer.toString(port), "--data-dir", dataDir.toString())) {
      serve.awaitLine("Use it with --backend zookeeper://127.0.0.1:" + port + ". Ctrl-C stops it.");
      assertThat(serve.output()).contains(dataDir.toString());

      try (LockClient client = ZooKeeperLockClient.connect("127.0.0.1:" + port); Lease lease = client.lock("served").acquire()) {
        assertThat(lease.isHeld()).isTrue();
      }

      serve.process().destroy();
      serve.awaitExit();
      assertThat(serve.process().isAlive()).isFalse();
      try (Stream<Path> files = Files.list(dataDir)) {
        assertThat(files).isNotEmpty();
      }
    }
  }
}
