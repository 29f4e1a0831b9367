package dev.baton.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The name of the lock a command acts on: its first argument, as flock(1) and {@code etcdctl lock} take it, or
 * {@code --key KEY}. Given once, one way or the other; given twice or not at all, it is a usage error that says how
 * to write it. {@code baton exec} takes several keys as {@code --key} repeated.
 */
final class LockKey {
  private static final String DASHES = "--";

  private LockKey() {}

  /** The key of {@code baton status}: {@code --key}'s value or the argument, whichever was given. */
  static String of(CommandSpec spec, String option, String argument) {
    if (option != null && argument != null) {
      throw twice(spec, option, argument, "");
    }
    if (option == null && argument == null) {
      throw new ParameterException(spec.commandLine(), "missing KEY (the name of the lock): write "
          + spec.qualifiedName() + " KEY, or --key KEY");
    }
    return option != null ? option : argument;
  }

  /**
   * The keys and the command of {@code baton exec}, from {@code --key}'s values (none, one, or several for a
   * multi-lock) and the words after the options. Without {@code --key}, the first word is the key, and a {@code --}
   * after it is dropped; with {@code --key}, every word is the command's. {@code --key a b -- c} gives the key twice,
   * unless a {@code --} came before {@code b} ({@code dashesFirst}): {@code --key a -- b -- c} runs {@code b -- c}.
   */
  static Command command(CommandSpec spec, List<String> options, List<String> words, boolean dashesFirst) {
    String option = options.isEmpty() ? null : options.get(0);
    if (option == null && words.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "missing KEY (the name of the lock): write "
          + spec.qualifiedName() + " KEY CMD [ARG...], or --key KEY CMD [ARG...]");
    }
    if (option != null && !dashesFirst && words.size() > 1 && words.get(1).equals(DASHES)) {
      throw twice(spec, option, words.get(0), " -- CMD");
    }
    List<String> keys = option != null ? options : List.of(words.get(0));
    List<String> command = option != null ? words : words.subList(1, words.size());
    if (option == null && !command.isEmpty() && command.get(0).equals(DASHES)) {
      command = command.subList(1, command.size());
    }
    if (command.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "missing CMD (the command to run, after KEY): write "
          + spec.qualifiedName() + " KEY CMD [ARG...]");
    }
    return new Command(List.copyOf(keys), List.copyOf(command));
  }

  /** The refusal of a key given both ways, with the two ways to write the command line: {@code rest} follows KEY. */
  private static ParameterException twice(CommandSpec spec, String option, String argument, String rest) {
    String command = spec.qualifiedName();
    return new ParameterException(spec.commandLine(), "the key is given twice, as --key '" + option + "' and as '"
        + argument + "': write " + command + " KEY" + rest + " or " + command + " --key KEY" + rest);
  }

  /** The locks' names (one, or several taken together) and the command to run under them, with its arguments. */
  record Command(List<String> keys, List<String> words) {
    /** One lock's name and the command. */
    Command(String key, List<String> words) {
      this(List.of(key), words);
    }

    /** The first key: the only one unless {@code --key} was repeated. */
    String key() {
      return keys.get(0);
    }
  }
}
