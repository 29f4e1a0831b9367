package dev.baton.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Redaction} hides the password of an address, whatever it holds, and keeps the rest readable. */
class RedactionTest {

  @Test
  void hidesThePasswordAndKeepsTheUser() {
    assertThat(Redaction.uri("redis://ops:s3cret@10.0.0.5:6379/2")).isEqualTo("redis://ops:***@10.0.0.5:6379/2");
    assertThat(Redaction.uri("redis://:S3cretPW@127.0.0.1:99999")).isEqualTo("redis://:***@127.0.0.1:99999");
  }

  @Test
  void hidesALoneUserInfoWhichRedisReadsAsThePassword() {
    assertThat(Redaction.uri("rediss://s3cret@cache")).isEqualTo("rediss://***@cache");
  }

  @Test
  void hidesAPasswordHoldingSeparatorsWhole() {
    assertThat(Redaction.uri("redis://:a/b,c@d@cache:6379")).isEqualTo("redis://:***@cache:6379");
    assertThat(Redaction.uri("http://u:p@a:2379,http://u:q@b:2379")).isEqualTo("http://u:***@b:2379")
        .doesNotContain("p@", "q@");
  }

  @Test
  void hidesTheUserInfoOfAConnectStringWithoutScheme() {
    assertThat(Redaction.uri("digest:s3cret@zk1:2181/locks")).isEqualTo("digest:***@zk1:2181/locks");
  }

  @Test
  void leavesAddressesWithoutUserInfoAlone() {
    assertThat(Redaction.uri("redis://127.0.0.1:6379")).isEqualTo("redis://127.0.0.1:6379");
    assertThat(Redaction.uri("zk1:2181,zk2:2181/chroot")).isEqualTo("zk1:2181,zk2:2181/chroot");
    assertThat(Redaction.uri(null)).isEqualTo("null");
  }
}
