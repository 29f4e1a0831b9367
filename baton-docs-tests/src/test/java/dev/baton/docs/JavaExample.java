package dev.baton.docs;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ```java} block of a Markdown page: a whole compilation unit, as a reader would paste it.
 *
 * @param page the Markdown file, relative to the repository's root
 * @param line the line of the page on which the block's code starts (1-based)
 * @param source the block's code
 */
record JavaExample(Path page, int line, String source) {
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile("(?m)^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|enum|record|@interface)\\s+(\\w+)");

  /** The name of the block's public top-level type, which names its source file as javac expects. */
  String typeName() {
    Matcher type = PUBLIC_TYPE.matcher(source);
    if (!type.find()) {
      throw new AssertionError(where() + ": the example declares no public top-level type; write it as a whole"
          + " program (a public class with its imports), or in a ```text fence if it is not meant to be pasted");
    }
    return type.group(1);
  }

  /** {@code README.md:67}, as an editor takes it. */
  String where() {
    return page + ":" + line;
  }

  @Override
  public String toString() {
    return where();
  }
}
