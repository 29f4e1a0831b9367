package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The {@code ```java} blocks of the repository's README.md and of every Markdown page under docs/. */
final class MarkdownExamples {
  private static final String JAVA_FENCE = "```java";
  private static final String FENCE = "```";

  private MarkdownExamples() {}

  /** The repository's root, which the build passes as {@code baton.root}. */
  static Path root() {
    String root = System.getProperty("baton.root");
    if (root == null) {
      throw new IllegalStateException("baton.root is not set: run the tests through Maven, which sets it to the"
          + " repository's root, or pass -Dbaton.root=PATH");
    }
    return Path.of(root).toAbsolutePath().normalize();
  }

  /** README.md, then the pages under docs/ in path order. */
  static List<Path> pages() {
    Path root = root();
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  /** Every java block of every page, in page order. */
  static List<JavaExample> all() {
    List<JavaExample> examples = new ArrayList<>();
    for (Path page : pages()) {
      examples.addAll(of(page));
    }
    return examples;
  }

  /** The java blocks of one page, in the order they appear. */
  static List<JavaExample> of(Path page) {
    List<String> lines;
    try {
      lines = Files.readAllLines(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path name = root().relativize(page.toAbsolutePath().normalize());
    List<JavaExample> examples = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals(JAVA_FENCE)) {
        continue;
      }
      int start = i + 1;
      StringBuilder source = new StringBuilder();
      int end = start;
      while (end < lines.size() && !lines.get(end).strip().equals(FENCE)) {
        source.append(lines.get(end)).append('\n');
        end++;
      }
      if (end == lines.size()) {
        throw new AssertionError(name + ":" + (start + 1) + ": the java block is never closed");
      }
      examples.add(new JavaExample(name, start + 1, source.toString()));
      i = end;
    }
    return examples;
  }
}
