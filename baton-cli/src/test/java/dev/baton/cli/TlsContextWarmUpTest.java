package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which command lines warm the JVM's default TLS context up: those that name a ZooKeeper store. */
class TlsContextWarmUpTest {

  @Test
  void aZooKeeperBackendOnTheCommandLineOrInTheEnvironmentWarmsItUp() {
    assertThat(TlsContextWarmUp.namesZooKeeper(new String[] {"exec", "-b", "zookeeper://127.0.0.1:2181", "k"}, null))
        .isTrue();
    assertThat(TlsContextWarmUp.namesZooKeeper(new String[] {"status", "--backend=zk://a:2181/chroot", "k"}, null))
        .isTrue();
    assertThat(TlsContextWarmUp.namesZooKeeper(new String[] {"exec", "k", "true"}, "zookeeper://127.0.0.1:2181"))
        .isTrue();
  }

  @Test
  void otherStoresDoNot() {
    assertThat(TlsContextWarmUp.namesZooKeeper(new String[] {"exec", "-b", "redis://127.0.0.1:6379", "k"}, null))
        .isFalse();
    assertThat(TlsContextWarmUp.namesZooKeeper(new String[] {"exec", "k", "true"}, "etcd://127.0.0.1:2379")).isFalse();
    assertThat(TlsContextWarmUp.namesZooKeeper(new String[] {"--version"}, null)).isFalse();
  }
}
