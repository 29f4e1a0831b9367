package dev.baton.cli;

import dev.baton.LockOptions;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Checks an option's value against the range the command takes, before anything runs, and refuses one outside it
 * as a usage error (exit 64) that names the option, the range and the value in the command line's own words:
 * {@code baton exec: --wait must be from 0 to 8760h, but was 9000h; see 'baton exec --help'}.
 */
final class OptionRange {
  /** The longest duration any option takes: the library's limit, a year. */
  static final Duration MAX_DURATION = LockOptions.MAX_DURATION;

  private OptionRange() {}

  /** Refuses {@code value} of {@code option} outside {@code min} to {@code max}. */
  static void check(CommandSpec spec, String option, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new ParameterException(spec.commandLine(), option + " must be from " + DurationConverter.format(min)
          + " to " + DurationConverter.format(max) + ", but was " + DurationConverter.format(value));
    }
  }

  /** Refuses {@code value} of {@code option} outside {@code min} to {@code max}. */
  static void check(CommandSpec spec, String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ParameterException(spec.commandLine(), option + " must be from " + min + " to " + max + ", but was "
          + value);
    }
  }
}
