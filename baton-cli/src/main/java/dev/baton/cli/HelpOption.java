package dev.baton.cli;

import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/** The {@code -h}/{@code --help} option that every subcommand of {@code baton} mixes in. */
final class HelpOption {
  private static final String DESCRIPTION = "Show this help, with examples, and exit.";

  @Option(names = {"-h", "--help"}, usageHelp = true, description = DESCRIPTION)
  private boolean help;

  /** The same option built in code, for a command whose model is built in code ({@link ExecCommand#model}). */
  static OptionSpec option() {
    return OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class).description(DESCRIPTION).build();
  }
}
