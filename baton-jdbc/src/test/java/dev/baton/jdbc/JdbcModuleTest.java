package dev.baton.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The module is Baton's SQL stores' own: its one package is exported to them and to no one else. */
class JdbcModuleTest {

  @Test
  void itsPackageIsExportedToTheSqlStoresOnly() throws Exception {
    Path classes = Path.of(JdbcCalls.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor module = ModuleFinder.of(classes).find("dev.baton.jdbc").orElseThrow().descriptor();

    assertThat(module.exports()).singleElement().satisfies(export -> {
      assertThat(export.source()).isEqualTo("dev.baton.jdbc");
      assertThat(export.targets()).containsExactlyInAnyOrder("dev.baton.postgres", "dev.baton.mysql");
    });
    assertThat(module.opens()).isEmpty();
  }
}
