package dev.baton.cli;

import picocli.CommandLine.Option;

/** The {@code -h}/{@code --help} option that every subcommand of {@code baton} mixes in. */
final class HelpOption {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help, with examples, and exit.")
  private boolean help;
}
