package dev.baton.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Redaction} hides the secrets of an address, whatever its form, and keeps the rest readable. */
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
  void leavesAddressesWithoutSecretsAlone() {
    assertThat(Redaction.uri("redis://127.0.0.1:6379")).isEqualTo("redis://127.0.0.1:6379");
    assertThat(Redaction.uri("zk1:2181,zk2:2181/chroot")).isEqualTo("zk1:2181,zk2:2181/chroot");
    assertThat(Redaction.uri("postgresql://db:5432/app?user=app&sslmode=require&sslkey=/etc/app/key.pk8"))
        .isEqualTo("postgresql://db:5432/app?user=app&sslmode=require&sslkey=/etc/app/key.pk8");
    assertThat(Redaction.uri(null)).isEqualTo("null");
  }

  @Test
  void hidesThePasswordParametersOfEveryPostgresForm() {
    assertThat(Redaction.uri("postgresql://127.0.0.1:5432/baton?user=baton&password=S3CRETPW"))
        .isEqualTo("postgresql://127.0.0.1:5432/baton?user=baton&password=***");
    assertThat(Redaction.uri("postgres://db/app?password=S3CRETPW&user=app"))
        .isEqualTo("postgres://db/app?password=***&user=app");
    assertThat(Redaction.uri("jdbc:postgresql://h1:5432,h2:5432/app?user=app&password=S3CRETPW&sslmode=verify-full"))
        .isEqualTo("jdbc:postgresql://h1:5432,h2:5432/app?user=app&password=***&sslmode=verify-full");
    assertThat(Redaction.uri("jdbc:postgresql://db/app?sslkey=/k.pk8&sslpassword=KEYPW&PASSWORD=S3CRETPW"))
        .isEqualTo("jdbc:postgresql://db/app?sslkey=/k.pk8&sslpassword=***&PASSWORD=***");
    assertThat(Redaction.uri("postgresql://app:S3CRETPW@db/app?password=OTHERPW"))
        .isEqualTo("postgresql://app:***@db/app?password=***");
  }

  @Test
  void hidesAParameterValueHoldingSeparatorsWhole() {
    assertThat(Redaction.uri("postgresql://db/app?password=a@b#c/d&user=app"))
        .isEqualTo("postgresql://db/app?password=***&user=app").doesNotContain("a@b", "c/d");
    assertThat(Redaction.uri("postgresql://db/app?pass%77ord=S3CRETPW")).isEqualTo("postgresql://db/app?pass%77ord=***");
  }

  @Test
  void hidesTokenAndKeyParametersOnEveryStore() {
    assertThat(Redaction.uri("redis://cache:6379?password=S3CRETPW")).isEqualTo("redis://cache:6379?password=***");
    assertThat(Redaction.uri("redis-sentinel://s1:26379,s2:26379?auth=S3CRETPW#orders"))
        .isEqualTo("redis-sentinel://s1:26379,s2:26379?auth=***");
    assertThat(Redaction.uri("redis-cluster://n1:7000?access_token=S3CRET")).isEqualTo("redis-cluster://n1:7000?access_token=***");
    assertThat(Redaction.uri("etcd://e1:2379?token=S3CRET&x=1")).isEqualTo("etcd://e1:2379?token=***&x=1");
    assertThat(Redaction.uri("zookeeper://zk1:2181/locks?apiKey=S3CRET")).isEqualTo("zookeeper://zk1:2181/locks?apiKey=***");
    assertThat(Redaction.uri("https://e1:2379?client_secret=S3CRET")).isEqualTo("https://e1:2379?client_secret=***");
  }

  @Test
  void takesTheUserInfoPasswordOutAndKeepsTheUser() {
    assertThat(Redaction.withoutSecrets("redis://ops:s3cret@10.0.0.5:6379/2")).isEqualTo("redis://ops@10.0.0.5:6379/2");
    assertThat(Redaction.withoutSecrets("rediss://:s3cret@cache:6380")).isEqualTo("rediss://cache:6380");
    assertThat(Redaction.withoutSecrets("redis://s3cret@cache")).isEqualTo("redis://cache");
    assertThat(Redaction.withoutSecrets("redis-sentinel://ops:s3cret@s1:26379,s2:26379/2#orders"))
        .isEqualTo("redis-sentinel://ops@s1:26379,s2:26379/2#orders");
    assertThat(Redaction.withoutSecrets("rediss-cluster://ops:s3cret@n1:7000,n2:7001"))
        .isEqualTo("rediss-cluster://ops@n1:7000,n2:7001");
    assertThat(Redaction.withoutSecrets("postgresql://app:s3cret@db:5432/app")).isEqualTo("postgresql://app@db:5432/app");
    assertThat(Redaction.withoutSecrets("postgresql://app@db:5432/app")).isEqualTo("postgresql://app@db:5432/app");
    assertThat(Redaction.withoutSecrets("jdbc:postgresql://app:p?w@db/app")).isEqualTo("jdbc:postgresql://app@db/app");
  }

  @Test
  void takesSecretParametersOutAndKeepsTheOthers() {
    assertThat(Redaction.withoutSecrets("postgresql://127.0.0.1:5432/baton?user=baton&password=S3CRETPW"))
        .isEqualTo("postgresql://127.0.0.1:5432/baton?user=baton");
    assertThat(Redaction.withoutSecrets("jdbc:postgresql://db/app?password=S3CRETPW&user=app&sslpassword=K&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/app?user=app&ssl=true");
    assertThat(Redaction.withoutSecrets("postgres://db/app?password=S3CRETPW")).isEqualTo("postgres://db/app");
    assertThat(Redaction.withoutSecrets("redis://cache:6379/0?timeout=5s&compat=redisson"))
        .isEqualTo("redis://cache:6379/0?timeout=5s&compat=redisson");
  }

  @Test
  void takesEachUriOfAListAlone() {
    assertThat(Redaction.withoutSecrets("http://u:p@a:2379,http://u:q@b:2379")).isEqualTo("http://u@a:2379,http://u@b:2379");
  }

  @Test
  void keepsAnAtSignAfterTheAuthorityInWhatItHandsOn() {
    assertThat(Redaction.withoutSecrets("zookeeper://zk1:2181,zk2:2181/team@locks"))
        .isEqualTo("zookeeper://zk1:2181,zk2:2181/team@locks");
    assertThat(Redaction.withoutSecrets("not a uri")).isEqualTo("not a uri");
  }

  @Test
  void saysWhetherAnAddressHoldsSecrets() {
    assertThat(Redaction.hasSecrets("postgresql://db/app?user=app&password=S3CRETPW")).isTrue();
    assertThat(Redaction.hasSecrets("redis://:s3cret@cache")).isTrue();
    assertThat(Redaction.hasSecrets("postgresql://app@db/app?sslmode=require")).isFalse();
    assertThat(Redaction.hasSecrets(null)).isFalse();
  }
}
