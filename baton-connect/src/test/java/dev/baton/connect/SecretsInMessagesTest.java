package dev.baton.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A password written into a backend URI never shows in what a bad URI throws: neither in the message, which names
 * the URI with the password hidden, nor in a cause's, nor in the stack trace that --verbose prints.
 */
class SecretsInMessagesTest {
  private static final String SECRET = "S3cretPW";

  @Test
  void aMalformedRedisUri() {
    assertHidden(() -> LockClients.connect("redis://:" + SECRET + "@127.0.0.1:99999"),
        "redis://:***@127.0.0.1:99999");
  }

  @Test
  void aRedisUriWithASpaceInThePassword() {
    assertHidden(() -> LockClients.connect("redis://ops:" + SECRET + " x@127.0.0.1:6379"),
        "redis://ops:***@127.0.0.1:6379");
  }

  @Test
  void aSentinelUriWithoutMasterName() {
    assertHidden(() -> LockClients.connect("redis-sentinel://:" + SECRET + "@127.0.0.1:26379,127.0.0.1:26380"),
        "redis-sentinel://:***@127.0.0.1:26379,127.0.0.1:26380");
  }

  @Test
  void aMalformedSentinelUri() {
    assertHidden(() -> LockClients.connect("rediss-sentinel://ops:" + SECRET + "@127.0.0.1:99999#orders"),
        "rediss-sentinel://ops:***@127.0.0.1:99999#orders");
  }

  @Test
  void aClusterUriWithADatabase() {
    assertHidden(() -> LockClients.connect("rediss-cluster://ops:" + SECRET + "@127.0.0.1:7000,127.0.0.1:7001/3"),
        "rediss-cluster://ops:***@127.0.0.1:7000,127.0.0.1:7001/3");
  }

  @Test
  void anUnknownScheme() {
    assertHidden(() -> LockClients.connect("mongodb://ops:" + SECRET + "@h"), "mongodb://ops:***@h");
  }

  @Test
  void anEtcdEndpointWithAUser() {
    assertHidden(() -> LockClients.connect("etcd://ops:" + SECRET + "@127.0.0.1:2379"), "ops:***@127.0.0.1:2379");
  }

  @Test
  void aMalformedEtcdEndpoint() {
    assertHidden(() -> LockClients.connect("etcd://ops:" + SECRET + " x@127.0.0.1:2379"),
        "ops:***@127.0.0.1:2379");
  }

  @Test
  void aZooKeeperConnectStringWithAUser() {
    assertHidden(() -> LockClients.connect("zookeeper://ops:" + SECRET + "@127.0.0.1:2181"),
        "ops:***@127.0.0.1:2181");
  }

  private static void assertHidden(Executable connect, String shown) {
    Throwable thrown = catchThrowable(connect::execute);
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(shown);
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    assertThat(trace.toString()).as("the stack trace, causes included").doesNotContain(SECRET);
  }
}
