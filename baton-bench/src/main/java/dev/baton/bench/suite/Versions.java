package dev.baton.bench.suite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The versions of the libraries of a run, as the build resolved them ({@code versions.properties}). */
final class Versions {
  private static final String RESOURCE = "versions.properties";

  private Versions() {}

  /** "NAME VERSION" for each library, in the file's order. */
  static List<String> libraries() {
    try (InputStream in = Versions.class.getResourceAsStream(RESOURCE)) {
      List<String> libraries = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          libraries.add(line.replace("\\ ", " ").replace('=', ' ').strip());
        }
      }
      return libraries;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
