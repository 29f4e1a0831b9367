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
  void aNumberWithoutAUnitIsSecondsAsFlockAndEtcdctlTakeIt() {
    assertThat(DurationConverter.parse("10")).isEqualTo(Duration.ofSeconds(10));
    assertThat(DurationConverter.parse("300")).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void decimalsAreAllowedToTheMillisecond() {
    assertThat(DurationConverter.parse("0.5")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationConverter.parse(".25")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationConverter.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(DurationConverter.parse("1.5m")).isEqualTo(Duration.ofSeconds(90));
    assertThat(DurationConverter.parse("0.001")).isEqualTo(Duration.ofMillis(1));
    assertThat(DurationConverter.parse("2.000000")).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void rejectsAnythingElseNamingTheValueAndTheFormsItTakes() {
    for (String bad : new String[] {"", "-1", "-1s", "-0.5", "10 s", "1d", "ten", "1.", ".", "1e3", "1,5", "s"}) {
      assertThatThrownBy(() -> DurationConverter.parse(bad)).as(bad)
          .isInstanceOf(CommandLine.TypeConversionException.class)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("seconds (10, 0.5) or a number with a unit (500ms, 10s, 5m, 1h)");
    }
  }

  @Test
  void aNegativeValueIsCalledSo() {
    assertThatThrownBy(() -> DurationConverter.parse("-5")).hasMessageStartingWith("'-5' is negative: ");
  }

  @Test
  void aValueFinerThanAMillisecondIsRefusedRatherThanRounded() {
    assertThatThrownBy(() -> DurationConverter.parse("0.0005")).hasMessageStartingWith("'0.0005' is finer than a"
        + " millisecond: ");
    assertThatThrownBy(() -> DurationConverter.parse("1.5ms")).hasMessageContaining("finer than a millisecond");
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
