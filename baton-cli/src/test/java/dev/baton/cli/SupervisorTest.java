package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How the supervisor is given its grace between SIGTERM and SIGKILL: seconds as sleep(1) reads them. */
class SupervisorTest {

  @Test
  void graceIsWrittenInSecondsWithoutTrailingZeros() {
    assertThat(Supervisor.seconds(Duration.ZERO)).isEqualTo("0");
    assertThat(Supervisor.seconds(Duration.ofSeconds(10))).isEqualTo("10");
    assertThat(Supervisor.seconds(Duration.ofMillis(500))).isEqualTo("0.5");
    assertThat(Supervisor.seconds(Duration.ofMillis(1500))).isEqualTo("1.5");
    assertThat(Supervisor.seconds(Duration.ofMillis(1010))).isEqualTo("1.01");
    assertThat(Supervisor.seconds(Duration.ofMillis(1))).isEqualTo("0.001");
    assertThat(Supervisor.seconds(Duration.ofMillis(3_333_250))).isEqualTo("3333.25");
  }
}
