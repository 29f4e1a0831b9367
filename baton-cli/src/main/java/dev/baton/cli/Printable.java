package dev.baton.cli;

/**
 * Text from the store (key names, owner ids, the holder's host and thread, which any peer may have written) made
 * safe to print: a control character (C0, DEL, C1) or a character that reorders or hides text (bidirectional
 * overrides and isolates, zero-width marks) would break a table row or reach the terminal as an escape sequence, so
 * each is written as an escape instead: {@code \n}, {@code \t}, {@code \r}, or {@code \u001b} and the like.
 */
final class Printable {
  private Printable() {}

  /** {@code value} for a field of text output, its backslashes doubled so that an escape cannot be mistaken for one. */
  static String value(String value) {
    return escaped(value, true, false);
  }

  /** {@code line}, a message or a line of a stack trace, with its tabs kept and its backslashes as they are. */
  static String line(String line) {
    return escaped(line, false, true);
  }

  /** {@code value} as a JSON string, quotes included; unsafe characters are escaped as JSON writes them. */
  static String json(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (isUnsafe(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String escaped(String text, boolean backslashes, boolean keepTabs) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '\\' -> out.append(backslashes ? "\\\\" : "\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append(keepTabs ? "\t" : "\\t");
        default -> out.append(isUnsafe(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return out.toString();
  }

  /** C0 and C1 controls, DEL, and the invisible marks that reorder or hide text around them. */
  private static boolean isUnsafe(char c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= '\u200b' && c <= '\u200f') || (c >= '\u202a' && c <= '\u202e')
        || (c >= '\u2066' && c <= '\u2069') || c == '\u2028' || c == '\u2029' || c == '\ufeff';
  }
}
