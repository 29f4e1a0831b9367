package dev.baton.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A manual page in roff (man(7)) of one command, written from its picocli {@link CommandSpec}: its synopsis,
 * description, options, parameters and subcommands as {@code --help} shows them, and its footer (backends, exit
 * statuses, examples) as a section of its own. Written here rather than through picocli-codegen's AsciiDoc, which
 * needs Asciidoctor (and JRuby) in the build to become roff.
 */
final class ManPage {
  private final CommandSpec spec;
  private final String date;

  ManPage(CommandSpec spec, String date) {
    this.spec = spec;
    this.date = date;
  }

  /** The page's file name: {@code baton.1}, {@code baton-exec.1}. */
  String fileName() {
    return pageName() + ".1";
  }

  /** The page in roff. */
  String roff() {
    List<String> page = new ArrayList<>();
    page.add(".TH " + quoted(pageName().toUpperCase(java.util.Locale.ROOT)) + " 1 " + quoted(date) + " "
        + quoted(spec.root().version().length > 0 ? spec.root().version()[0] : spec.root().name()) + " "
        + quoted("User Commands"));
    page.add(".SH NAME");
    page.add(text(spec.qualifiedName() + " - " + firstSentence()));
    page.add(".SH SYNOPSIS");
    page.add(".nf");
    help().synopsis(0).lines().map(ManPage::text).forEach(page::add);
    page.add(".fi");
    page.add(".SH DESCRIPTION");
    paragraph(page, List.of(spec.usageMessage().description()));
    if (!spec.positionalParameters().isEmpty()) {
      page.add(".SH ARGUMENTS");
      for (PositionalParamSpec parameter : spec.positionalParameters()) {
        item(page, "\\fI" + text(parameter.paramLabel()) + "\\fR", parameter.description());
      }
    }
    if (!spec.options().isEmpty()) {
      page.add(".SH OPTIONS");
      for (OptionSpec option : spec.options()) {
        if (!option.hidden()) {
          item(page, optionLabel(option), option.description());
        }
      }
    }
    Map<String, CommandLine> subcommands = spec.subcommands();
    if (!subcommands.isEmpty()) {
      page.add(".SH COMMANDS");
      subcommands.forEach((name, command) -> {
        CommandSpec sub = command.getCommandSpec();
        String seeAlso = sub.subcommands().isEmpty() && !"help".equals(name) ? " (see \\fB" + text(
            new ManPage(sub, date).pageName()) + "\\fR(1))" : "";
        page.add(".TP");
        page.add("\\fB" + text(name) + "\\fR");
        page.add(text(new ManPage(sub, date).firstSentence()) + seeAlso);
      });
    }
    String[] footer = spec.usageMessage().footer();
    if (footer.length > 0) {
      page.add(".SH NOTES");
      page.add(".nf");
      for (String line : footer) {
        page.add(line.isBlank() ? ".sp" : text(line));
      }
      page.add(".fi");
    }
    if (spec.parent() != null) {
      page.add(".SH SEE ALSO");
      page.add("\\fB" + text(new ManPage(spec.root(), date).pageName()) + "\\fR(1)");
    }
    return String.join("\n", page) + "\n";
  }

  private String pageName() {
    return spec.qualifiedName("-");
  }

  private String firstSentence() {
    String[] description = spec.usageMessage().description();
    String all = String.join(" ", description).strip();
    int end = all.indexOf(". ");
    return end < 0 ? all.replaceAll("\\.$", "") : all.substring(0, end);
  }

  private Help help() {
    return new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
  }

  private static String optionLabel(OptionSpec option) {
    StringBuilder label = new StringBuilder();
    for (String name : option.names()) {
      label.append(label.length() == 0 ? "" : ", ").append("\\fB").append(text(name)).append("\\fR");
    }
    if (option.arity().max() > 0) {
      label.append(" \\fI").append(text(option.paramLabel())).append("\\fR");
    }
    return label.toString();
  }

  private static void item(List<String> page, String label, String[] description) {
    page.add(".TP");
    page.add(label);
    page.add(text(String.join(" ", description).strip()));
  }

  /** The lines as one filled paragraph, but for an empty line, which starts another. */
  private static void paragraph(List<String> page, List<String> lines) {
    for (String line : lines) {
      page.add(line.isBlank() ? ".PP" : text(line.strip()));
    }
  }

  /** Text as roff shows it literally: backslashes and hyphens escaped, no line taken for a request. */
  static String text(String plain) {
    String escaped = plain.replace("\\", "\\e").replace("-", "\\-");
    return escaped.startsWith(".") || escaped.startsWith("'") ? "\\&" + escaped : escaped;
  }

  private static String quoted(String value) {
    return '"' + value.replace("\"", "") + '"';
  }
}
