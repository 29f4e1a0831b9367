package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link BackendUri} removes passwords and nothing else. */
class BackendUriTest {

  @Test
  void keepsTheUserAndDropsThePassword() {
    assertThat(BackendUri.withoutPassword("redis://ops:s3cret@10.0.0.5:6379/2")).isEqualTo("redis://ops@10.0.0.5:6379/2");
  }

  @Test
  void dropsAPasswordWithoutUser() {
    assertThat(BackendUri.withoutPassword("rediss://:s3cret@cache:6380")).isEqualTo("rediss://cache:6380");
  }

  @Test
  void dropsALoneUserInfoWhichRedisReadsAsThePassword() {
    assertThat(BackendUri.withoutPassword("redis://s3cret@cache")).isEqualTo("redis://cache");
  }

  @Test
  void leavesAnAtSignAfterTheAuthorityAlone() {
    assertThat(BackendUri.withoutPassword("zookeeper://zk1:2181,zk2:2181/team@locks"))
        .isEqualTo("zookeeper://zk1:2181,zk2:2181/team@locks");
  }

  @Test
  void leavesUrisWithoutUserInfoAlone() {
    assertThat(BackendUri.withoutPassword("redis://127.0.0.1:6379")).isEqualTo("redis://127.0.0.1:6379");
    assertThat(BackendUri.withoutPassword("not a uri")).isEqualTo("not a uri");
  }
}
