package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * How {@code baton exec} reads its command line, as flock(1) and {@code etcdctl lock} users write it: KEY first, then
 * the command, whose words are its own; or {@code --key KEY}; short options; durations in seconds.
 */
class ExecArgumentsTest {

  @Test
  void theFirstWordIsTheKeyAndTheRestIsTheCommand() {
    assertThat(line("exec", "deploy", "./deploy.sh", "production"))
        .isEqualTo(new LockKey.Command("deploy", List.of("./deploy.sh", "production")));
  }

  @Test
  void aDoubleDashAfterTheKeyIsOptional() {
    assertThat(line("exec", "deploy", "--", "ls", "-l")).isEqualTo(new LockKey.Command("deploy", List.of("ls", "-l")));
    assertThat(line("exec", "--", "deploy", "ls")).isEqualTo(new LockKey.Command("deploy", List.of("ls")));
  }

  @Test
  void everyWordAfterTheKeyIsTheCommandsEvenOnesThatLookLikeBatonsOptions() {
    assertThat(line("exec", "k", "ls", "-l")).isEqualTo(new LockKey.Command("k", List.of("ls", "-l")));
    ParseResult parsed = parse("exec", "k", "-w", "5", "grep", "-v", "--verbose", "x");
    assertThat(exec(parsed).line().words()).containsExactly("-w", "5", "grep", "-v", "--verbose", "x");
    assertThat(parsed.subcommand().hasMatchedOption("--wait")).isFalse();
    assertThat(parsed.subcommand().hasMatchedOption("--verbose")).isFalse();
  }

  @Test
  void anArgumentFileIsTheCommandsWordNotBatons() {
    assertThat(line("exec", "k", "curl", "-d", "@body.json", "http://app/")).isEqualTo(
        new LockKey.Command("k", List.of("curl", "-d", "@body.json", "http://app/")));
  }

  @Test
  void withKeyAsAnOptionEveryWordIsTheCommands() {
    assertThat(line("exec", "--key", "k", "ls", "-l")).isEqualTo(new LockKey.Command("k", List.of("ls", "-l")));
    assertThat(line("exec", "--key", "k", "--", "ls", "-l")).isEqualTo(new LockKey.Command("k", List.of("ls", "-l")));
    assertThat(line("exec", "--key", "k", "--", "nice", "--", "ls")).as("a -- of the command's own")
        .isEqualTo(new LockKey.Command("k", List.of("nice", "--", "ls")));
  }

  @Test
  void keyRepeatedTakesSeveralKeysTogether() {
    assertThat(line("exec", "--key", "b", "--key", "a", "--", "./transfer.sh", "1"))
        .isEqualTo(new LockKey.Command(List.of("b", "a"), List.of("./transfer.sh", "1")));
    assertThat(line("exec", "--key", "a", "--key", "b", "ls", "--key", "c")).as("a --key of the command's own")
        .isEqualTo(new LockKey.Command(List.of("a", "b"), List.of("ls", "--key", "c")));
  }

  @Test
  void theShortOptionsAreTheLongOnes() {
    ParseResult parsed = parse("exec", "-b", "redis://127.0.0.1:6379", "-w", "0.5", "-s", "-E", "3", "-v", "k", "true")
        .subcommand();
    assertThat(parsed.<String>matchedOptionValue("--backend", null)).isEqualTo("redis://127.0.0.1:6379");
    assertThat(parsed.<Duration>matchedOptionValue("--wait", null)).isEqualTo(Duration.ofMillis(500));
    assertThat(parsed.<Boolean>matchedOptionValue("--shared", false)).isTrue();
    assertThat(parsed.<Integer>matchedOptionValue("--conflict-exit-code", null)).isEqualTo(3);
    assertThat(parsed.hasMatchedOption("--verbose")).isTrue();
    parsed = parse("exec", "-n", "-p", "4", "k", "true").subcommand();
    assertThat(parsed.hasMatchedOption("--nonblock")).isTrue();
    assertThat(parsed.<Integer>matchedOptionValue("--permits", null)).isEqualTo(4);
    assertThat(parse("exec", "-x", "k", "true").subcommand().hasMatchedOption("--exclusive")).isTrue();
  }

  @Test
  void durationsWithoutAUnitAreSeconds() {
    ParseResult parsed = parse("exec", "--ttl", "10", "--hold-timeout", "1.5", "--kill-after", "2", "k", "true").subcommand();
    assertThat(parsed.<Duration>matchedOptionValue("--ttl", null)).isEqualTo(Duration.ofSeconds(10));
    assertThat(parsed.<Duration>matchedOptionValue("--hold-timeout", null)).isEqualTo(Duration.ofMillis(1500));
    assertThat(parsed.<Duration>matchedOptionValue("--kill-after", null)).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void waitingForeverIsTheDefaultAsWithFlockAndEtcdctl() {
    CommandLine.Model.OptionSpec wait = parse("exec", "k", "true").subcommand().commandSpec().findOption("--wait");
    assertThat(wait.defaultValue()).isNull();
    assertThat(String.join(" ", wait.description())).contains("Default: forever");
  }

  @Test
  void batonOnTheOtherCommandsTakesShortBackendToo() {
    for (String command : List.of("status", "list", "revoke", "demo", "torture")) {
      ParseResult parsed = parse(command, "-b", "redis://127.0.0.1:6379").subcommand();
      assertThat(parsed.<String>matchedOptionValue("--backend", null)).as(command).isEqualTo("redis://127.0.0.1:6379");
    }
    assertThat(parse("status", "-b", "redis://127.0.0.1:6379", "orders/42", "--json").subcommand()
        .matchedPositionals()).hasSize(1);
  }

  /** The key and command that {@code baton ARGS} would run. */
  private static LockKey.Command line(String... args) {
    return exec(parse(args)).line();
  }

  private static ExecCommand exec(ParseResult parsed) {
    return parsed.subcommand().commandSpec().commandLine().getCommand();
  }

  private static ParseResult parse(String... args) {
    CommandLine cli = BatonCli.commandLine(args);
    cli.setErr(new PrintWriter(new StringWriter()));
    return cli.parseArgs(args);
  }
}
