package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class StoreClassPathsTest {
  /** A verbose tree as maven-dependency-plugin writes it: a jar two stores share is drawn under the first alone. */
  private static final List<String> TREE = List.of(
      "dev.baton:baton-cli:jar:1.0",
      "+- dev.baton:baton-redis:jar:1.0:compile",
      "|  +- dev.baton:baton-core:jar:1.0:compile",
      "|  \\- io.lettuce:lettuce-core:jar:6.8:compile",
      "|     +- io.netty:netty-common:jar:4.1:compile",
      "|     \\- io.netty:netty-handler:jar:4.1:compile (version managed from 4.0)",
      "|        +- (io.netty:netty-common:jar:4.1:compile - omitted for duplicate)",
      "|        \\- io.netty:netty-tcnative:jar:linux-x86_64:2.0:compile",
      "+- dev.baton:baton-etcd:jar:1.0:compile",
      "|  +- (dev.baton:baton-core:jar:1.0:compile - omitted for duplicate)",
      "|  \\- io.grpc:grpc-netty:jar:1.8:compile",
      "|     +- (io.netty:netty-handler:jar:4.1:compile - version managed from 4.0; omitted for duplicate)",
      "|     \\- io.grpc:grpc-core:jar:1.8:runtime",
      "+- dev.baton:baton-connect:jar:1.0:compile",
      "|  \\- (dev.baton:baton-core:jar:1.0:compile - omitted for duplicate)",
      "+- org.slf4j:slf4j-simple:jar:2.0:runtime",
      "|  \\- org.slf4j:slf4j-api:jar:2.0:runtime",
      "\\- dev.baton:baton-testkit:jar:1.0:test",
      "   \\- org.junit:junit-jupiter:jar:5.10:test");

  @Test
  void aStoreReachesTheJarsItSharesWithAStoreDrawnBeforeIt() {
    List<StoreClassPaths.Node> tree = StoreClassPaths.parse(TREE);

    assertThat(StoreClassPaths.jars(tree, List.of("dev.baton:baton-etcd"))).containsExactly("baton-core-1.0.jar",
        "netty-common-4.1.jar", "netty-handler-4.1.jar", "netty-tcnative-2.0-linux-x86_64.jar", "baton-etcd-1.0.jar",
        "grpc-netty-1.8.jar", "grpc-core-1.8.jar");
  }

  @Test
  void aStoreLeavesOutTheOtherStoresAndTheTestJars() {
    List<StoreClassPaths.Node> tree = StoreClassPaths.parse(TREE);

    assertThat(StoreClassPaths.jars(tree, List.of("dev.baton:baton-connect", "org.slf4j:slf4j-simple",
        "dev.baton:baton-redis"))).containsExactly("baton-redis-1.0.jar", "baton-core-1.0.jar",
        "lettuce-core-6.8.jar", "netty-common-4.1.jar", "netty-handler-4.1.jar",
        "netty-tcnative-2.0-linux-x86_64.jar", "baton-connect-1.0.jar", "slf4j-simple-2.0.jar", "slf4j-api-2.0.jar");
    assertThat(StoreClassPaths.jars(tree, List.of("dev.baton:baton-connect"))).containsExactly("baton-core-1.0.jar",
        "baton-connect-1.0.jar");
  }

  @Test
  void refusesAStoreModuleTheTreeHasNot() {
    List<StoreClassPaths.Node> tree = StoreClassPaths.parse(TREE);

    assertThatThrownBy(() -> StoreClassPaths.jars(tree, List.of("dev.baton:baton-mysql")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("dev.baton:baton-mysql");
  }
}
