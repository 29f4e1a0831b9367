package dev.baton.virtualthreads;

import dev.baton.testkit.PostgresServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The virtual-thread contract on a PostgreSQL server the test kit starts. */
class PostgresVirtualThreadTest extends VirtualThreadContract {
  @RegisterExtension
  static final PostgresServerExtension postgres = new PostgresServerExtension();

  @Override
  String uri() {
    return postgres.uri();
  }
}
