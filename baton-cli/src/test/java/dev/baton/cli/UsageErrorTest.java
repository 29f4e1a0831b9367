package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A command line baton cannot run is answered with exit status 64 and one line on stderr: what was wrong, and
 * the {@code --help} to read, which works.
 */
class UsageErrorTest {
  private static final Pattern HINT = Pattern.compile("; see '(baton(?: [a-z]+)?) --help'$");

  @Test
  void aMissingKeyIsNamedWithTheWaysToGiveIt() {
    assertThat(usageError("exec"))
        .isEqualTo("baton exec: missing KEY (the name of the lock): write baton exec KEY CMD [ARG...], or --key KEY"
            + " CMD [ARG...]; see 'baton exec --help'");
    assertThat(usageError("exec", "-b", "redis://127.0.0.1:6379", "--")).startsWith("baton exec: missing KEY");
    assertThat(usageError("status", "--backend", "redis://127.0.0.1:6379"))
        .isEqualTo("baton status: missing KEY (the name of the lock): write baton status KEY, or --key KEY;"
            + " see 'baton status --help'");
  }

  @Test
  void aMissingCommandToRunIsNamed() {
    String missing = "baton exec: missing CMD (the command to run, after KEY): write baton exec KEY CMD [ARG...];"
        + " see 'baton exec --help'";
    assertThat(usageError("exec", "k")).isEqualTo(missing);
    assertThat(usageError("exec", "k", "--")).isEqualTo(missing);
    assertThat(usageError("exec", "--key", "k", "--")).isEqualTo(missing);
  }

  @Test
  void aKeyGivenBothWaysIsRefusedWithTheTwoWaysToWriteIt() {
    assertThat(usageError("exec", "--key", "a", "b", "--", "true"))
        .isEqualTo("baton exec: the key is given twice, as --key 'a' and as 'b': write baton exec KEY -- CMD or"
            + " baton exec --key KEY -- CMD; see 'baton exec --help'");
    assertThat(usageError("status", "--key", "a", "b"))
        .isEqualTo("baton status: the key is given twice, as --key 'a' and as 'b': write baton status KEY or"
            + " baton status --key KEY; see 'baton status --help'");
  }

  @Test
  void severalKeysAreRefusedToSharedAndPermitRuns() {
    assertThat(usageError("exec", "-b", "redis://127.0.0.1:6379", "-s", "--key", "a", "--key", "b", "true"))
        .isEqualTo("baton exec: --shared takes one key, but --key was given 2 times: several keys are taken together"
            + " as exclusive locks only; see 'baton exec --help'");
    assertThat(usageError("exec", "-b", "redis://127.0.0.1:6379", "-p", "2", "--key", "a", "--key", "b", "true"))
        .startsWith("baton exec: --permits takes one key");
  }

  @Test
  void nonblockAndWaitTogetherAreRefused() {
    assertThat(usageError("exec", "-n", "-w", "5", "k", "true"))
        .isEqualTo("baton exec: -n/--nonblock is --wait 0: give one of them, not both; see 'baton exec --help'");
  }

  @Test
  void exclusiveSharedAndPermitsExcludeEachOther() {
    assertThat(usageError("exec", "-x", "-s", "k", "true")).contains("--exclusive, --shared are mutually exclusive");
    assertThat(usageError("exec", "-s", "-p", "2", "k", "true")).contains("--shared, --permits=N are mutually"
        + " exclusive");
  }

  @Test
  void anUnknownOptionOrCommandIsNamedWithASuggestion() {
    assertThat(usageError("demo", "--worker", "3")).startsWith("baton demo: unknown option '--worker'")
        .contains("did you mean '--workers'?");
    assertThat(usageError("exce", "--key", "k")).startsWith("baton: unknown command 'exce'")
        .contains("did you mean 'exec'?");
  }

  @Test
  void aBadValueSaysHowToWriteIt() {
    assertThat(usageError("exec", "--key", "k", "--wait", "10x", "--", "true"))
        .contains("'10x' is not a duration: write a duration as seconds (10, 0.5) or a number with a unit (500ms,"
            + " 10s, 5m, 1h)")
        .endsWith("; see 'baton exec --help'");
  }

  @Test
  void aNegativeOrMalformedDurationIsAUsageErrorNamingTheValue() {
    assertThat(usageError("exec", "-w", "-1", "k", "true")).contains("'-1' is negative: write a duration as seconds");
    assertThat(usageError("exec", "--ttl", "-5s", "k", "true")).contains("'-5s' is negative");
    assertThat(usageError("exec", "-w", "1.2.3", "k", "true")).contains("'1.2.3' is not a duration");
    assertThat(usageError("exec", "--hold-timeout", "0.0001", "k", "true")).contains("'0.0001' is finer than a millisecond");
  }

  @Test
  void aConflictExitCodeIsAnExitStatus() {
    assertThat(usageError("exec", "-E", "256", "k", "true"))
        .isEqualTo("baton exec: --conflict-exit-code must be from 0 to 255, but was 256; see 'baton exec --help'");
  }

  @Test
  void aValueOutOfRangeFoundByTheCommandIsAUsageErrorToo() {
    assertThat(usageError("demo", "--workers", "0"))
        .isEqualTo("baton demo: --workers must be from 1 to 256, but was 0; see 'baton demo --help'");
  }

  @Test
  void aDurationOutOfRangeNamesTheOptionAndTheRangeInTheCommandLinesWords() {
    assertThat(usageError("exec", "--key", "k", "--wait", "9000h", "--", "true"))
        .isEqualTo("baton exec: --wait must be from 0 to 8760h, but was 9000h; see 'baton exec --help'");
    assertThat(usageError("exec", "--ttl", "0.05", "k", "true"))
        .isEqualTo("baton exec: --ttl must be from 100ms to 8760h, but was 50ms; see 'baton exec --help'");
    assertThat(usageError("exec", "--key", "k", "--hold-timeout", "0", "--", "true")).contains("--hold-timeout must be from 1ms");
    assertThat(usageError("exec", "--key", "k", "--kill-after", "999999h", "--", "true"))
        .contains("--kill-after must be from 0 to 8760h, but was 999999h");
    assertThat(usageError("torture", "--ttl", "9000h")).contains("--ttl must be from 200ms to 8760h");
    assertThat(usageError("demo", "--pause", "9000h")).contains("--pause must be from 0 to 8760h");
  }

  @Test
  void aNumberOutOfRangeNamesTheOptionAndTheRange() {
    assertThat(usageError("exec", "--key", "k", "--permits", "0", "--", "true"))
        .contains("--permits must be from 1 to 2147483647, but was 0");
    assertThat(usageError("list", "--limit", "100000"))
        .isEqualTo("baton list: --limit must be from 1 to 10000, but was 100000; see 'baton list --help'");
    assertThat(usageError("torture", "--workers", "1")).contains("--workers must be from 2 to 64, but was 1");
    assertThat(usageError("serve", "--port", "70000")).contains("--port must be from 1 to 65535, but was 70000");
  }

  @Test
  void aStoreInsideTheProcessIsForTheDemoAlone() {
    assertThat(usageError("status", "-b", "memory://", "k")).isEqualTo("baton status: the backend memory:// is a store"
        + " inside this process, which no other process reaches: give a server's URI (baton demo alone runs on"
        + " memory://); see 'baton status --help'");
    assertThat(usageError("exec", "-b", "memory://jobs", "k", "--", "true")).contains("memory://jobs is a store inside");
    assertThat(usageError("list", "-b", "memory://")).contains("no other process reaches");
    assertThat(usageError("torture", "-b", "memory://")).contains("no other process reaches");
  }

  /** Runs baton with {@code args}, checks that it failed with one line and a working hint, and returns that line. */
  private static String usageError(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(BatonCli.run(new PrintWriter(out), new PrintWriter(err), args)).isEqualTo(ExitCodes.USAGE);
    assertThat(out.toString()).isEmpty();
    String line = err.toString();
    assertThat(line).as("one line").endsWith(System.lineSeparator()).containsOnlyOnce(System.lineSeparator());
    line = line.strip();
    Matcher hint = HINT.matcher(line);
    assertThat(hint.find()).as("a hint at the end of: %s", line).isTrue();
    StringWriter help = new StringWriter();
    String[] helpArgs = (hint.group(1).substring("baton".length()) + " --help").strip().split(" ");
    assertThat(BatonCli.run(new PrintWriter(help), new PrintWriter(new StringWriter()), helpArgs))
        .as("baton %s", String.join(" ", helpArgs)).isZero();
    assertThat(help.toString()).startsWith("Usage: " + hint.group(1));
    return line;
  }
}
