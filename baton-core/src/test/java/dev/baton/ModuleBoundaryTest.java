package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Users see the API and the SPI, nothing of the engine: on the module path {@code baton-core} exports
 * {@code dev.baton}, {@code dev.baton.spi} and {@code dev.baton.memory} only, not the in-memory store's implementation
 * ({@code dev.baton.engine.memory}, public for the test kit), and Baton's plumbing ({@code dev.baton.internal}) to
 * Baton's modules only; on the class path no class of {@code dev.baton.engine} is public, so no code outside the
 * package can name one.
 */
class ModuleBoundaryTest {
  private static final String ENGINE = "dev.baton.engine";
  private static final String MEMORY_STORE = "dev.baton.engine.memory";
  private static final String INTERNAL = "dev.baton.internal";

  @Test
  void theModuleExportsTheApiAndTheSpiOnly() throws Exception {
    ModuleDescriptor module = ModuleFinder.of(coreClasses()).find("dev.baton.core").orElseThrow().descriptor();

    assertThat(module.exports()).filteredOn(export -> !export.isQualified())
        .extracting(ModuleDescriptor.Exports::source).containsExactlyInAnyOrder("dev.baton", "dev.baton.spi", "dev.baton.memory");
    assertThat(module.opens()).isEmpty();
    assertThat(module.packages()).contains(ENGINE, MEMORY_STORE, INTERNAL);
  }

  @Test
  void batonsPlumbingIsExportedToBatonsModulesOnly() throws Exception {
    ModuleDescriptor module = ModuleFinder.of(coreClasses()).find("dev.baton.core").orElseThrow().descriptor();

    assertThat(module.exports()).filteredOn(ModuleDescriptor.Exports::isQualified).singleElement().satisfies(export -> {
      assertThat(export.source()).isEqualTo(INTERNAL);
      assertThat(export.targets()).isNotEmpty().allMatch(target -> target.startsWith("dev.baton."), "a module of Baton's");
    });
  }

  @Test
  void noEngineClassIsPublic() throws Exception {
    List<Class<?>> engineClasses = engineClassNames().stream().map(ModuleBoundaryTest::load).toList();

    assertThat(engineClasses).as("the engine's classes").hasSizeGreaterThan(10)
        .allMatch(type -> !Modifier.isPublic(type.getModifiers()), "not public");
  }

  private static Path coreClasses() throws URISyntaxException {
    return Path.of(LockClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static List<String> engineClassNames() throws Exception {
    Path root = coreClasses();
    Path engine = root.resolve(ENGINE.replace('.', '/'));
    try (Stream<Path> files = Files.list(engine)) {
      return files.map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class"))
          .map(name -> ENGINE + "." + name.substring(0, name.length() - ".class".length()))
          .collect(Collectors.toList());
    }
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, ModuleBoundaryTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
