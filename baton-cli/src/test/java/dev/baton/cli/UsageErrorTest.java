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
  void aMissingOptionIsNamedWithWhatItIs() {
    assertThat(usageError("exec", "--", "true"))
        .isEqualTo("baton exec: missing --key (the name of the lock); see 'baton exec --help'");
    assertThat(usageError("status", "--backend", "redis://127.0.0.1:6379"))
        .isEqualTo("baton status: missing --key (the name of the lock); see 'baton status --help'");
  }

  @Test
  void aMissingCommandToRunIsNamed() {
    assertThat(usageError("exec", "--key", "k", "--"))
        .isEqualTo("baton exec: missing CMD (the command and its arguments, after --); see 'baton exec --help'");
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
        .contains("'10x' is not a duration: write it like 500ms, 10s, 5m or 1h")
        .endsWith("; see 'baton exec --help'");
  }

  @Test
  void aValueOutOfRangeFoundByTheCommandIsAUsageErrorToo() {
    assertThat(usageError("demo", "--workers", "0"))
        .isEqualTo("baton demo: --workers must be 1 to 256 and --seconds 1 to 3600, but were 0 and 10;"
            + " see 'baton demo --help'");
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
