package dev.baton.cli;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Says what was wrong with a command line, and where to read how to write it, in one line:
 * {@code baton exec: missing --key (the name of the lock); see 'baton exec --help'}.
 */
final class UsageError {
  private UsageError() {}

  /** The line for a command line that picocli could not parse. */
  static String describe(ParameterException e) {
    return line(e.getCommandLine(), what(e));
  }

  /** The line for {@code problem} with the command line of {@code command}, e.g. a value out of range. */
  static String line(CommandLine command, String problem) {
    String name = command.getCommandSpec().qualifiedName();
    return name + ": " + Printable.line(sentence(problem)) + "; see '" + name + " --help'";
  }

  private static String what(ParameterException e) {
    if (e instanceof MissingParameterException missing && !missing.getMissing().isEmpty()) {
      return missing.getMissing().stream().map(UsageError::missing).collect(Collectors.joining(", "));
    }
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      return unmatched(unmatched);
    }
    return e.getMessage();
  }

  private static String missing(ArgSpec arg) {
    String name = arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
    String[] description = arg.description();
    return "missing " + name + (description.length == 0 ? "" : " (" + sentence(description[0]) + ")");
  }

  private static String unmatched(UnmatchedArgumentException e) {
    String first = e.getUnmatched().get(0);
    String kind = first.startsWith("-") ? "unknown option"
        : e.getCommandLine().getSubcommands().isEmpty() ? "unexpected argument" : "unknown command";
    List<String> suggestions = e.getSuggestions();
    return kind + " '" + first + "'" + (suggestions.isEmpty() ? "" : " (did you mean '" + suggestions.get(0) + "'?)");
  }

  /** {@code text} as a clause of a longer line: on one line, lower case first, no closing full stop. */
  private static String sentence(String text) {
    String clause = text.strip().replaceAll("\\s*\\R\\s*", " ").replaceFirst("\\.$", "");
    if (clause.length() > 1 && Character.isUpperCase(clause.charAt(0)) && !Character.isUpperCase(clause.charAt(1))) {
      clause = clause.substring(0, 1).toLowerCase(Locale.ROOT) + clause.substring(1);
    }
    return clause;
  }
}
