package dev.baton.bench.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** How {@code bench.stores} names the stores. */
class SettingsTest {
  @Test
  void storesAreNamedByTheirIdsWithDashes() {
    assertThat(Settings.stores("redis-cluster")).containsExactly(Store.REDIS_CLUSTER);
    assertThat(Settings.stores(" Redis , redis-cluster")).containsExactly(Store.REDIS, Store.REDIS_CLUSTER);
    assertThat(Settings.stores(null)).isEqualTo(EnumSet.allOf(Store.class));
    assertThat(Settings.stores("mysql")).containsExactly(Store.MYSQL);
  }

  @Test
  void anUnknownStoreIsRefusedWithTheNamesToUse() {
    assertThatIllegalArgumentException().isThrownBy(() -> Settings.stores("redis_cluster"))
        .withMessageContaining("'redis_cluster'")
        .withMessageContaining("[redis, zookeeper, etcd, postgres, mysql, redis-cluster]");
  }
}
