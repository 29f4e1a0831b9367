package dev.baton.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The fencing tokens of the demo's report, in the order the lock was granted: all of them when they are
 * few, else the first and the last ten with how many were left out between them.
 */
final class GrantOrder {
  /** Up to this many tokens are all shown. */
  static final int ALL_UP_TO = 20;
  /** How many are shown at each end of a longer list. */
  static final int EACH_END = 10;
  private static final int PER_LINE = 10;

  private GrantOrder() {}

  /** The lines that show {@code tokens}, ten tokens a line. */
  static List<String> lines(List<Long> tokens) {
    List<String> lines = new ArrayList<>();
    if (tokens.size() <= ALL_UP_TO) {
      addRows(lines, tokens);
      return lines;
    }
    addRows(lines, tokens.subList(0, EACH_END));
    lines.add(String.format("... %,d more ...", tokens.size() - 2 * EACH_END));
    addRows(lines, tokens.subList(tokens.size() - EACH_END, tokens.size()));
    return lines;
  }

  private static void addRows(List<String> lines, List<Long> tokens) {
    for (int from = 0; from < tokens.size(); from += PER_LINE) {
      lines.add(tokens.subList(from, Math.min(tokens.size(), from + PER_LINE)).stream()
          .map(String::valueOf).collect(Collectors.joining(" ")));
    }
  }
}
