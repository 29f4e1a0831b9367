package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The launcher (src/dist/bin/baton) reads a command line's store from its {@code -b}/{@code --backend} option alone,
 * skipping the other options' values: its {@code store_named_by} lists every option that takes a value and every flag
 * of the commands it runs on a store's class path. This test reads those lists from the script and compares them with
 * picocli's models of the commands (their mixins and the options baton's own level passes down included), so that a
 * new option, or one renamed or gone, fails here rather than sends a run to the whole class path, or reads an option's
 * value as the lock's key.
 */
class LauncherOptionsTest {
  /** The commands the launcher runs on the class path of the store their command line names. */
  private static final List<String> ON_A_STORE = List.of("exec", "status", "list", "revoke", "demo");
  private static final String FIX = " (the script's names first, the commands' after: make store_named_by in"
      + " src/dist/bin/baton list what the commands take)";
  private static final Pattern CASE_ARM = Pattern.compile("^\\s*([^()\\n]+?)\\)\\s*(.*?);;\\s*$", Pattern.MULTILINE);

  private static final Set<String> scriptValueOptions = new TreeSet<>();
  private static final Set<String> scriptValueAssignments = new TreeSet<>();
  private static final Set<String> scriptFlags = new TreeSet<>();
  private static final Set<String> modelValueOptions = new TreeSet<>();
  private static final Set<String> modelFlags = new TreeSet<>();

  @BeforeAll
  static void readTheScriptAndTheModels() throws IOException {
    String script = Files.readString(Path.of("src/dist/bin/baton"));
    int start = script.indexOf("store_named_by() {");
    assertThat(start).as("bin/baton's store_named_by function").isNotNegative();
    // The function's first case, over each word, up to its esac; continued lines joined.
    String words = script.substring(script.indexOf("case $word in", start), script.indexOf("esac", start))
        .replace("\\\n", " ");
    Matcher arm = CASE_ARM.matcher(words);
    while (arm.find()) {
      List<String> patterns = Arrays.stream(arm.group(1).split("\\|")).map(String::strip).toList();
      String action = arm.group(2).strip();
      if (action.startsWith("value_next=")) {
        scriptValueOptions.addAll(patterns);
      } else if (action.isEmpty() && patterns.stream().allMatch(p -> p.startsWith("--") && p.endsWith("=*"))) {
        patterns.forEach(p -> scriptValueAssignments.add(p.substring(0, p.length() - "=*".length())));
      } else if (action.isEmpty()) {
        scriptFlags.addAll(patterns);
      }
    }
    assertThat(scriptValueOptions).as("bin/baton's options that take a value").contains("--backend", "--key");
    assertThat(scriptFlags).as("bin/baton's flags").contains("--help");
    for (String name : ON_A_STORE) {
      CommandSpec command = BatonCli.commandLine(name).getSubcommands().get(name).getCommandSpec();
      for (CommandSpec level : List.of(command, command.parent())) {
        for (OptionSpec option : level.options()) {
          (option.arity().max() == 0 ? modelFlags : modelValueOptions).addAll(Arrays.asList(option.names()));
        }
      }
    }
  }

  @Test
  void theScriptReadsEveryOptionThatTakesAValueAsTakingOne() {
    assertThat(scriptValueOptions).as("options bin/baton reads a value after (value_next=)" + FIX)
        .containsExactlyInAnyOrderElementsOf(modelValueOptions);
  }

  @Test
  void theScriptReadsEveryLongOptionThatTakesAValueWrittenWithItsValue() {
    Set<String> longValueOptions = new TreeSet<>(modelValueOptions);
    longValueOptions.removeIf(name -> !name.startsWith("--"));
    Set<String> assignments = new TreeSet<>(scriptValueAssignments);
    assignments.add("--backend"); // its own arm, which reads the store from it
    assertThat(assignments).as("--option=VALUE words bin/baton skips" + FIX).containsExactlyInAnyOrderElementsOf(
        longValueOptions);
  }

  @Test
  void theScriptReadsEveryFlagAsAFlag() {
    assertThat(scriptFlags).as("flags bin/baton skips" + FIX).containsExactlyInAnyOrderElementsOf(modelFlags);
  }

  @Test
  void noNameIsAFlagOfOneCommandAndTakesAValueInAnother() {
    Set<String> both = new TreeSet<>(modelFlags);
    both.retainAll(modelValueOptions);
    assertThat(both).as("names bin/baton could not read the same way on every command").isEmpty();
  }
}
