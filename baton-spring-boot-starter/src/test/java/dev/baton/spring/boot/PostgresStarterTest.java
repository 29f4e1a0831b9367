package dev.baton.spring.boot;

import dev.baton.testkit.PostgresServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The starter on a real PostgreSQL server named by its URI. */
class PostgresStarterTest extends StarterContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  protected String backend() {
    return postgres.uri();
  }

  @Override
  protected String backendName() {
    return "postgres";
  }
}
