package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and docs/ compiles as pasted, a whole compilation unit with its imports,
 * against every store, the Spring starter, ShedLock, Spring Integration, Micrometer and Reactor.
 */
class DocsExamplesCompileTest {
  @TempDir
  Path output;

  @TestFactory
  Stream<DynamicTest> everyJavaExampleCompiles() {
    ExampleCompiler compiler = new ExampleCompiler(ClassPaths.everything());
    return MarkdownExamples.all().stream().map(example -> DynamicTest.dynamicTest(example.where(), () -> {
      String errors = compiler.compile(example, output.resolve(example.page() + "-" + example.line()));
      assertThat(errors).as("%s does not compile", example.where()).isEmpty();
    }));
  }

  @Test
  void theExamplesAreFoundWhereTheyAre() {
    List<JavaExample> examples = MarkdownExamples.all();

    assertThat(examples).extracting(e -> e.page().toString())
        .contains("README.md", Path.of("docs", "primitives.md").toString(), Path.of("docs", "spring.md").toString(),
            Path.of("docs", "async.md").toString());
    assertThat(MarkdownExamples.of(MarkdownExamples.root().resolve("README.md")))
        .hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(e -> assertThat(e.source()).contains("import dev.baton.").doesNotContain("```"));
  }
}
