package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockOptionsTest {

  @Test
  void defaultsWaitWithoutLimitAndRenew() {
    LockOptions options = LockOptions.defaults();
    assertThat(options.waitTime()).isEmpty();
    assertThat(options.holdTimeout()).isEmpty();
    assertThat(options.ttl()).isEqualTo(LockOptions.DEFAULT_TTL);
    assertThat(options.fair()).isTrue();
  }

  @Test
  void zeroWaitMeansTryOnce() {
    assertThat(LockOptions.defaults().withWaitTime(Duration.ZERO).waitTime()).contains(Duration.ZERO);
  }

  @Test
  void rejectsOutOfRangeValuesNamingTheField() {
    assertThatThrownBy(() -> LockOptions.builder().waitTime(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waitTime").hasMessageContaining("PT-0.001S");
    assertThatThrownBy(() -> LockOptions.builder().waitTime(Duration.ofDays(366)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waitTime").hasMessageContaining("365 days");
    assertThatThrownBy(() -> LockOptions.builder().holdTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdTimeout");
    assertThatThrownBy(() -> LockOptions.builder().ttl(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl");
    assertThatThrownBy(() -> LockOptions.builder().ttl(Duration.ofMillis(99)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl").hasMessageContaining("100 ms");
    assertThatThrownBy(() -> LockOptions.builder().ttl(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl");
  }

  @Test
  void equalOptionsAreEqual() {
    LockOptions a = LockOptions.builder().waitTime(Duration.ofSeconds(1)).fair(false).build();
    LockOptions b = a.toBuilder().build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.toString()).contains("fair=false");
  }
}
