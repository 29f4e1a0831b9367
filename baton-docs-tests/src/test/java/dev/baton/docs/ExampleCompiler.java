package dev.baton.docs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles examples in this JVM with {@code javax.tools}, against a class path it is given. */
final class ExampleCompiler {
  private final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
  private final List<Path> classPath;

  ExampleCompiler(List<Path> classPath) {
    if (compiler == null) {
      throw new IllegalStateException("no system Java compiler: run the tests on a JDK, not a JRE");
    }
    this.classPath = List.copyOf(classPath);
  }

  /**
   * Compiles {@code example} into {@code output}.
   *
   * @return the compiler's errors, one per line with the example's page and line; empty when it compiled
   */
  String compile(JavaExample example, Path output) {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      List<String> options = List.of("--release", "17", "-proc:none", "-implicit:none",
          "-classpath", classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
          "-d", output.toString());
      boolean compiled = compiler.getTask(null, files, diagnostics, options, null, List.of(new Source(example)))
          .call();
      String errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .map(d -> example.page() + ":" + (example.line() + d.getLineNumber() - 1) + ": " + d.getMessage(Locale.ROOT))
          .collect(Collectors.joining("\n"));
      return compiled ? "" : (errors.isEmpty() ? example.where() + ": javac failed without an error" : errors);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An example as javac reads a source file, named after its public type. */
  private static final class Source extends SimpleJavaFileObject {
    private final String code;

    Source(JavaExample example) {
      super(URI.create("string:///" + example.typeName() + Kind.SOURCE.extension), Kind.SOURCE);
      this.code = example.source();
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}
