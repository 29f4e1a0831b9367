package dev.baton.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.servers.RedisErrorReply;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RedisServer#command} against a real server, one test per kind of reply. */
class RespRepliesTest {
  @RegisterExtension
  static final RedisServerExtension redis = new RedisServerExtension();

  @Test
  @Timeout(10)
  void simpleStringsAndIntegers() {
    assertThat(redis.command("SET", "resp/simple", "1")).isEqualTo("OK");
    assertThat(redis.command("INCR", "resp/simple")).isEqualTo(2L);
    assertThat(redis.command("DEL", "resp/simple")).isEqualTo(1L);
  }

  @Test
  @Timeout(10)
  void bulkStringsKeepEveryByte() {
    String value = "line one\r\nline two, ünïcode";
    redis.command("SET", "resp/bulk", value);
    assertThat(redis.command("GET", "resp/bulk")).isEqualTo(value);
    assertThat(redis.command("GET", "resp/missing")).isNull();
  }

  @Test
  @Timeout(10)
  void arraysNestAndMayBeNil() {
    assertThat(redis.command("EVAL", "return {1, {2, 'x'}, 'y'}", "0")).isEqualTo(List.of(1L, List.of(2L, "x"), "y"));
    assertThat(redis.command("BLPOP", "resp/empty-list", "0.01")).isNull();
  }

  @Test
  @Timeout(10)
  void errorsAreThrown() {
    assertThatThrownBy(() -> redis.command("NO-SUCH-COMMAND"))
        .isInstanceOf(RedisErrorReply.class)
        .hasMessageStartingWith("ERR");
  }
}
