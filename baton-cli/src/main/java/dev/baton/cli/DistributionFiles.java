package dev.baton.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * Writes the files of the command's distribution that come from the command itself, so that they never disagree
 * with it: {@code completion/baton.bash} (picocli's bash completion) and {@code man/man1/baton.1} with a page per
 * subcommand. The build runs it at prepare-package with the directory to write into.
 */
public final class DistributionFiles {
  private DistributionFiles() {}

  /** Writes the completion script and the manual pages into the directory {@code args[0]}. */
  public static void main(String[] args) {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: DistributionFiles OUTPUT_DIRECTORY (got " + args.length
          + " arguments)");
    }
    Path output = Path.of(args[0]);
    CommandLine baton = BatonCli.commandLine(); // every command, read as a run reads them
    write(output.resolve("completion/baton.bash"), AutoComplete.bash("baton", baton));
    // The date of the build, in UTC: a page's date says which build it documents.
    String date = LocalDate.now(ZoneOffset.UTC).toString();
    for (CommandLine command : commandAndSubcommands(baton)) {
      ManPage page = new ManPage(command.getCommandSpec(), date);
      write(output.resolve("man/man1").resolve(page.fileName()), page.roff());
    }
  }

  private static List<CommandLine> commandAndSubcommands(CommandLine baton) {
    List<CommandLine> all = new ArrayList<>(List.of(baton));
    baton.getSubcommands().forEach((name, command) -> {
      if (command.getCommandSpec().userObject() instanceof CommandLine.HelpCommand) {
        return; // `baton help` is --help by another name: the main page says so
      }
      all.add(command);
    });
    return all;
  }

  /** Writes {@code content} to {@code file}, making its directory: the build's files, failing the build if it cannot. */
  static void write(Path file, String content) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
