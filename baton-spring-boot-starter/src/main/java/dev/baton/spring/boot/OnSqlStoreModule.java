package dev.baton.spring.boot;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;

/** Matches when a store module that locks on a DataSource, baton-postgres or baton-mysql, is on the class path. */
final class OnSqlStoreModule extends AnyNestedCondition {
  OnSqlStoreModule() {
    super(ConfigurationPhase.REGISTER_BEAN);
  }

  @ConditionalOnClass(name = "dev.baton.postgres.PostgresLockClient")
  static final class PostgresModule {}

  @ConditionalOnClass(name = "dev.baton.mysql.MySqlLockClient")
  static final class MySqlModule {}
}
