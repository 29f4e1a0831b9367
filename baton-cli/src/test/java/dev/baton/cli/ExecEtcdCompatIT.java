package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.EtcdServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton exec --backend 'etcd://...?compat=etcd'} and {@code etcdctl lock} exclude each other from the shell. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ExecEtcdCompatIT {
  @RegisterExtension
  static final EtcdServerExtension etcd = new EtcdServerExtension();

  @TempDir
  Path dir;

  @Test
  void batonExecFindsTheLockOfEtcdctlTakenAndTakesItOnceReleased() throws Exception {
    Process etcdctl = new ProcessBuilder("etcdctl", "--endpoints", etcd.endpoint(), "lock", "nightly", "--", "sh", "-c",
        "echo held; while [ ! -e " + dir.resolve("release") + " ]; do sleep 0.01; done")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(etcdctl.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("held");
      assertThat(BatonProcess.run(dir, "exec", "--backend", backend(), "--key", "nightly", "--wait", "0", "--",
          "touch", "ran")).as("while etcdctl holds").isEqualTo(ExitCodes.NOT_ACQUIRED);
      assertThat(dir.resolve("ran")).doesNotExist();

      Files.createFile(dir.resolve("release"));
      assertThat(BatonProcess.run(dir, "exec", "--backend", backend(), "--key", "nightly", "--wait", "20s", "--",
          "touch", "ran")).as("once etcdctl released").isZero();
      assertThat(dir.resolve("ran")).exists();
    } finally {
      etcdctl.destroyForcibly();
    }
  }

  @Test
  void etcdctlWaitsWhileBatonExecHolds() throws Exception {
    try (BatonProcess holder = BatonProcess.start(dir, "exec", "--backend", backend(), "--key", "report", "--", "sh",
        "-c", "echo holding; exec sleep 30")) {
      holder.awaitLine("holding");
      Process etcdctl = new ProcessBuilder("etcdctl", "--endpoints", etcd.endpoint(), "lock", "report", "--", "echo",
          "etcdctl-ran").redirectError(ProcessBuilder.Redirect.DISCARD).start();
      try {
        assertThat(etcdctl.waitFor(1, TimeUnit.SECONDS)).as("etcdctl still waiting").isFalse();
        holder.close(); // killed: its lease ends within its ttl, or at once if it released
        assertThat(etcdctl.waitFor(60, TimeUnit.SECONDS)).as("etcdctl took the lock").isTrue();
        assertThat(new String(etcdctl.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("etcdctl-ran");
      } finally {
        etcdctl.destroyForcibly();
      }
    }
  }

  private static String backend() {
    return etcd.endpoint().replace("http://", "etcd://") + "?compat=etcd";
  }
}
