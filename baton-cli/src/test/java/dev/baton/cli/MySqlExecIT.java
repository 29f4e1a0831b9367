package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.servers.MariaDbServer;
import dev.baton.testkit.MariaDbServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton exec --backend mysql://...} on MariaDB: three processes at a time increment a counter file with a
 * read, a pause and a write, and the count comes out exact; a wrong password exits 77 without showing it.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MySqlExecIT {
  private static final int PROCESSES = 3;
  private static final int RUNS_EACH = 4;
  private static final String INCREMENT = "n=$(cat counter); sleep 0.05; echo $((n + 1)) > counter";

  @RegisterExtension
  static final MariaDbServerExtension mariadb = new MariaDbServerExtension();

  @TempDir
  Path dir;

  private static String backend() {
    return "mysql://127.0.0.1:" + mariadb.server().port() + "/" + MariaDbServer.DATABASE;
  }

  private static Map<String, String> credentials(String password) {
    return Map.of("BATON_USER", MariaDbServer.USER, "BATON_PASSWORD", password);
  }

  @Test
  void execExcludesAndTheCounterEndsExact() throws Exception {
    Files.writeString(dir.resolve("counter"), "0\n");
    ExecutorService workers = Executors.newFixedThreadPool(PROCESSES);
    try {
      List<Future<List<Integer>>> statuses = new ArrayList<>();
      for (int i = 0; i < PROCESSES; i++) {
        statuses.add(workers.submit(this::incrementRepeatedly));
      }
      for (Future<List<Integer>> worker : statuses) {
        assertThat(worker.get(2, TimeUnit.MINUTES)).as("exit statuses of one worker's runs").containsOnly(0);
      }
    } finally {
      workers.shutdownNow();
    }
    assertThat(Files.readString(dir.resolve("counter")).trim()).isEqualTo(Integer.toString(PROCESSES * RUNS_EACH));
  }

  private List<Integer> incrementRepeatedly() throws InterruptedException {
    List<Integer> statuses = new ArrayList<>();
    for (int run = 0; run < RUNS_EACH; run++) {
      try (BatonProcess exec = BatonProcess.start(dir, credentials(MariaDbServer.PASSWORD), "exec", "-b", backend(),
          "counter", "sh", "-c", INCREMENT)) {
        statuses.add(exec.awaitExit());
      }
    }
    return statuses;
  }

  @Test
  void aWrongPasswordExits77WithoutShowingIt() throws Exception {
    String wrong = "not-the-password-77";
    try (BatonProcess exec = BatonProcess.start(dir, credentials(wrong), "exec", "-b", backend(), "refused", "--",
        "true")) {
      assertThat(exec.awaitExit()).as(exec.output()).isEqualTo(ExitCodes.NO_PERMISSION);
      assertThat(exec.output()).contains("Access denied").doesNotContain(wrong);
    }
  }
}
