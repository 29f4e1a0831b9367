package dev.baton.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads durations as people write them: {@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h}, {@code 0}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

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
    Matcher m = FORM.matcher(value.trim().toLowerCase(Locale.ROOT));
    if (!m.matches() || (m.group(2) == null && !m.group(1).equals("0"))) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration: write it like 500ms, 10s, 5m or 1h");
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2) == null ? "s" : m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofSeconds(amount);
    };
  }
}
