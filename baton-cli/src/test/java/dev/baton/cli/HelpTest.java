package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.baton.connect.BackendUri;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --help} and {@code -h} on baton and on every one of its commands: usage, options and examples, in whole
 * lines of 80 columns at most; {@code baton} alone, which is a usage error; every store wherever stores are listed.
 */
class HelpTest {
  private static final int WIDTH = 80;

  /** Every scheme a backend URI may start with, as baton-connect reads them. */
  private static final List<String> SCHEMES = List.of("redis://", "rediss://", "redis-sentinel://",
      "rediss-sentinel://", "redis-cluster://", "rediss-cluster://", "zookeeper://", "zk://", "etcd://", "http://",
      "https://", "postgresql://", "postgres://", "jdbc:postgresql://", "mysql://", "mariadb://", "jdbc:mysql://",
      "jdbc:mariadb://");

  /** The top level and every subcommand, as the words that name them after {@code baton}. */
  static Stream<List<String>> commands() {
    List<List<String>> commands = new ArrayList<>();
    commands.add(List.of());
    BatonCli.commandLine().getSubcommands().keySet().forEach(name -> commands.add(List.of(name)));
    return commands.stream();
  }

  /** The subcommands that take {@code -b/--backend}. */
  static Stream<String> commandsWithABackend() {
    return BatonCli.commandLine().getSubcommands().values().stream()
        .filter(command -> command.getCommandSpec().findOption("--backend") != null)
        .map(CommandLine::getCommandName);
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

  @ParameterizedTest(name = "baton {0} --help")
  @MethodSource("commands")
  void everyLineFitsEightyColumns(List<String> command) {
    assertThat(help(command).lines()).allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(WIDTH));
  }

  @ParameterizedTest(name = "baton {0} --help")
  @MethodSource("commands")
  void noWordIsCutWhereALineWraps(List<String> command) {
    Set<String> shown = new HashSet<>(Arrays.asList(help(command).split("\\s+")));
    CommandSpec spec = spec(command);
    List<String> texts = new ArrayList<>();
    texts.addAll(List.of(spec.usageMessage().description()));
    texts.addAll(List.of(spec.usageMessage().footer()));
    for (ArgSpec arg : spec.args()) {
      if (!arg.hidden()) {
        texts.addAll(List.of(arg.description()));
      }
    }
    for (String text : texts) {
      for (String word : text.replace("%n", " ").split("\\s+")) {
        if (!word.isEmpty() && !word.contains("${")) {
          assertThat(shown).as("baton %s --help shows '%s' whole", command, word).contains(word);
        }
      }
    }
  }

  @Test
  void eachCommandsSummaryIsAWholeSentence() {
    String commands = help(List.of()).replaceAll("\\s+", " ");
    for (CommandLine command : BatonCli.commandLine().getSubcommands().values()) {
      // picocli lists a command with the first line of its header, or else of its description.
      CommandLine.Model.UsageMessageSpec usage = command.getCommandSpec().usageMessage();
      String summary = (usage.header().length > 0 ? usage.header() : usage.description())[0];
      assertThat(summary).as("the summary of %s", command.getCommandName()).endsWith(".");
      assertThat(commands).contains(" " + command.getCommandName() + " " + summary.replaceAll("\\s+", " ") + " ");
    }
  }

  @Test
  void batonHelpNamesEveryStore() {
    assertNamesEveryStore(help(List.of()), "baton --help");
    assertThat(help(List.of())).contains("Redis", "ZooKeeper", "etcd", "PostgreSQL", "MySQL");
  }

  @ParameterizedTest(name = "baton {0} --help")
  @MethodSource("commandsWithABackend")
  void eachBackendOptionNamesEveryStore(String command) {
    OptionSpec backend = spec(List.of(command)).findOption("--backend");
    assertThat(backend.names()).containsExactly("-b", "--backend");
    String help = help(List.of(command));
    String option = help.substring(help.indexOf("-b, --backend=URI"), help.indexOf("Default: $BATON_BACKEND"));
    assertNamesEveryStore(option, "baton " + command + " --backend");
  }

  @ParameterizedTest(name = "baton {0} --help")
  @MethodSource("commandsWithABackend")
  void theDemoAloneOffersAStoreInsideTheProcess(String command) {
    String help = help(List.of(command));
    String option = help.substring(help.indexOf("-b, --backend=URI"), help.indexOf("Default: $BATON_BACKEND"));
    if (command.equals("demo")) {
      assertThat(option).contains("memory://[name] (a store inside this process)");
    } else {
      assertThat(option).doesNotContain("memory://");
    }
    assertThat(help(List.of())).contains("memory://[name], a store inside the process: baton demo only");
  }

  @Test
  void theSchemesListedAreTheOnesBackendsTake() {
    for (String scheme : SCHEMES) {
      assertThatCode(() -> BackendUri.parse(scheme + "127.0.0.1:1/db")).as(scheme).doesNotThrowAnyException();
    }
  }

  @Test
  void batonAlonePrintsTheUsageOnStderrAndExits64() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(BatonCli.run(new PrintWriter(out), new PrintWriter(err))).isEqualTo(ExitCodes.USAGE);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).startsWith("Usage: baton [-hvV] [COMMAND]").contains("Commands:", "Examples:");
  }

  @Test
  void batonHelpExitsZeroAndAnUnknownCommand64() {
    StringWriter out = new StringWriter();
    assertThat(BatonCli.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "help")).isZero();
    assertThat(out.toString()).startsWith("Usage: baton [-hvV] [COMMAND]");
    assertThat(BatonCli.run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "lock"))
        .isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void versionPrintsTheVersion() {
    StringWriter out = new StringWriter();
    assertThat(BatonCli.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "--version")).isZero();
    assertThat(out.toString()).matches("baton \\d+\\.\\d+\\.\\d+\\S*\\R");
  }

  @Test
  void theExamplesUseTheKeyAsTheFirstArgument() {
    assertThat(help(List.of("exec"))).contains("  baton exec -b redis://127.0.0.1:6379 deploy ./deploy.sh production");
    assertThat(help(List.of("status"))).contains("  baton status -b redis://127.0.0.1:6379 nightly-report");
    assertThat(help(List.of())).contains("  baton exec -b redis://127.0.0.1:6379 deploy ./deploy.sh");
  }

  private static void assertNamesEveryStore(String text, String where) {
    for (String scheme : SCHEMES) {
      assertThat(text).as("%s names %s", where, scheme)
          .containsPattern("(^|[\\s(,])" + Pattern.quote(scheme));
    }
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

  private static String help(List<String> command) {
    StringWriter out = new StringWriter();
    List<String> args = new ArrayList<>(command);
    args.add("--help");
    assertThat(BatonCli.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args.toArray(String[]::new)))
        .isZero();
    return out.toString();
  }

  private static CommandSpec spec(List<String> command) {
    CommandLine line = BatonCli.commandLine();
    for (String name : command) {
      line = line.getSubcommands().get(name);
    }
    return line.getCommandSpec();
  }
}
