package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code --help} and {@code -h} on baton and on every one of its commands: usage, options and examples. */
class HelpTest {

  /** The top level and every subcommand, as the words that name them after {@code baton}. */
  static Stream<List<String>> commands() {
    List<List<String>> commands = new ArrayList<>();
    commands.add(List.of());
    new CommandLine(new BatonCli()).getSubcommands().keySet().forEach(name -> commands.add(List.of(name)));
    return commands.stream();
  }

  @ParameterizedTest(name = "baton {0} --help")
  @MethodSource("commands")
  void longHelpExitsZeroWithTheUsageTheOptionsAndExamples(List<String> command) {
    assertHelp(command, "--help");
  }

  @ParameterizedTest(name = "baton {0} -h")
  @MethodSource("commands")
  void shortHelpToo(List<String> command) {
    assertHelp(command, "-h");
  }

  private static void assertHelp(List<String> command, String helpOption) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>(command);
    args.add(helpOption);
    int status = BatonCli.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));

    assertThat(status).as("exit status; stderr: %s", err).isZero();
    assertThat(err.toString()).isEmpty();
    String usage = out.toString();
    assertThat(usage).contains(("Usage: baton " + String.join(" ", command)).strip())
        .contains("Examples:");
    for (OptionSpec option : spec(command).options()) {
      assertThat(usage).as("usage of baton %s names %s", command, option.longestName()).contains(option.longestName());
    }
  }

  private static CommandSpec spec(List<String> command) {
    CommandLine line = new CommandLine(new BatonCli());
    for (String name : command) {
      line = line.getSubcommands().get(name);
    }
    return line.getCommandSpec();
  }
}
