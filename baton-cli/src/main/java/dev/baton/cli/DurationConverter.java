package dev.baton.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads durations as people write them: seconds without a unit, as flock(1) and etcdctl take them ({@code 10},
 * {@code 0.5}), or a number with a unit ({@code 500ms}, {@code 10s}, {@code 1.5m}, {@code 1h}), to the millisecond.
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  /** How a duration is written, for the messages that refuse one. */
  static final String FORMS = "seconds (10, 0.5) or a number with a unit (500ms, 10s, 5m, 1h)";

  private static final Pattern FORM = Pattern.compile("(?=\\.?\\d)(\\d{0,9})(?:\\.(\\d{1,9}))?(ms|s|m|h)?");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /** {@code duration} as it is written on the command line, in its largest whole unit: {@code 8760h}, {@code 100ms}. */
  static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis == 0) {
      return "0";
    }
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + "h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + "m";
    }
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }

  static Duration parse(String value) {
    String written = value.trim().toLowerCase(Locale.ROOT);
    Matcher m = FORM.matcher(written);
    if (!m.matches()) {
      throw refused(value, written.startsWith("-") ? "is negative" : "is not a duration");
    }
    long unitMillis = switch (m.group(3) == null ? "s" : m.group(3)) {
      case "ms" -> 1;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      default -> 1000;
    };
    // In whole numbers, without BigDecimal, whose class initialization alone costs Java 25 about 10 ms (its tables of
    // powers): at most 9 digits either side of the point, so every product below fits a long.
    long whole = m.group(1).isEmpty() ? 0 : Long.parseLong(m.group(1));
    String fraction = m.group(2) == null ? "" : m.group(2);
    long fractionMillis = fraction.isEmpty() ? 0 : Long.parseLong(fraction) * unitMillis;
    long scale = 1;
    for (int digit = 0; digit < fraction.length(); digit++) {
      scale *= 10;
    }
    if (fractionMillis % scale != 0) {
      throw refused(value, "is finer than a millisecond");
    }
    return Duration.ofMillis(whole * unitMillis + fractionMillis / scale);
  }

  private static CommandLine.TypeConversionException refused(String value, String why) {
    return new CommandLine.TypeConversionException("'" + value + "' " + why + ": write a duration as " + FORMS);
  }
}
