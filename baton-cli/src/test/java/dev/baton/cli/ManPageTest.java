package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@link ManPage}: a picocli command as roff, every piece of its text shown as written. */
class ManPageTest {
  @Command(name = "tool", version = "tool 1.0", description = "Does one thing.")
  static final class Tool {}

  @Command(name = "copy", description = {"Copies FILE. Then says so.", "", ".dots and back\\slashes stay text."},
      footer = {"", "Examples:", "  tool copy --dry-run a.txt"})
  static final class Copy {
    @Option(names = {"-n", "--dry-run"}, description = "Say what would be copied.")
    boolean dryRun;

    @Option(names = "--to", paramLabel = "DIR", description = "Where to.")
    String to;

    @Parameters(paramLabel = "FILE", description = "What to copy.")
    String file;
  }

  @Test
  void aSubcommandsPageHasItsNameSynopsisDescriptionArgumentsOptionsAndFooter() {
    CommandLine tool = new CommandLine(new Tool()).addSubcommand(new Copy());
    ManPage page = new ManPage(tool.getSubcommands().get("copy").getCommandSpec(), "2026-11-27");

    assertThat(page.fileName()).isEqualTo("tool-copy.1");
    assertThat(page.roff()).startsWith(".TH \"TOOL-COPY\" 1 \"2026-11-27\" \"tool 1.0\" \"User Commands\"\n")
        .contains(".SH NAME\ntool copy \\- Copies FILE\n")
        .contains(".SH SYNOPSIS\n.nf\ntool copy [\\-n] [\\-\\-to=DIR] FILE\n.fi\n")
        .contains(".SH DESCRIPTION\nCopies FILE. Then says so.\n.PP\n\\&.dots and back\\eslashes stay text.\n")
        .contains(".SH ARGUMENTS\n.TP\n\\fIFILE\\fR\nWhat to copy.\n")
        .contains(".TP\n\\fB\\-n\\fR, \\fB\\-\\-dry\\-run\\fR\nSay what would be copied.\n")
        .contains(".TP\n\\fB\\-\\-to\\fR \\fIDIR\\fR\nWhere to.\n")
        .contains(".SH NOTES\n.nf\n.sp\nExamples:\n  tool copy \\-\\-dry\\-run a.txt\n.fi\n")
        .endsWith(".SH SEE ALSO\n\\fBtool\\fR(1)\n");
  }

  @Test
  void theMainPageListsItsCommandsWithTheirPages() {
    CommandLine tool = new CommandLine(new Tool()).addSubcommand(new Copy());
    String roff = new ManPage(tool.getCommandSpec(), "2026-11-27").roff();

    assertThat(roff).contains(".SH COMMANDS\n.TP\n\\fBcopy\\fR\nCopies FILE (see \\fBtool\\-copy\\fR(1))\n")
        .doesNotContain(".SH SEE ALSO");
  }
}
