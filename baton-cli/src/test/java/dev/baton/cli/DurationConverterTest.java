package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationConverterTest {

  @Test
  void readsTheUnitsPeopleWrite() {
    assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationConverter.parse("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(DurationConverter.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(DurationConverter.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(DurationConverter.parse("0")).isEqualTo(Duration.ZERO);
    assertThat(DurationConverter.parse(" 2S ")).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void rejectsAnythingElseNamingTheValue() {
    for (String bad : new String[] {"", "10", "-1s", "1.5s", "10 s", "1d", "ten"}) {
      assertThatThrownBy(() -> DurationConverter.parse(bad)).as(bad)
          .isInstanceOf(CommandLine.TypeConversionException.class)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("10s");
    }
  }

  @Test
  void writesADurationInItsLargestWholeUnit() {
    assertThat(DurationConverter.format(Duration.ofDays(365))).isEqualTo("8760h");
    assertThat(DurationConverter.format(Duration.ofMinutes(90))).isEqualTo("90m");
    assertThat(DurationConverter.format(Duration.ofSeconds(10))).isEqualTo("10s");
    assertThat(DurationConverter.format(Duration.ofMillis(100))).isEqualTo("100ms");
    assertThat(DurationConverter.format(Duration.ZERO)).isEqualTo("0");
  }
}
