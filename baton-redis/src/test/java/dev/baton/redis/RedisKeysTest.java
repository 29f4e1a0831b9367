package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The two key layouts: one server's names as Baton has always written them, and a cluster's, whose names of one lock
 * all hash to one slot (by the slot function Lettuce routes with, Redis's own) whatever braces the key holds.
 */
class RedisKeysTest {
  private static final RedisKeys UNTAGGED = RedisKeys.untagged("baton:");
  private static final RedisKeys TAGGED = RedisKeys.tagged("baton:");
  private static final List<String> KEYS = List.of("orders/42", "a{b}c", "}", "}x", "{", "{}", "x}{y}", "50%",
      "%7D", "%25}", "ключ", " ");

  @Test
  void oneServerKeepsTheNamesBatonHasAlwaysWritten() {
    assertThat(Stream.of(UNTAGGED.lock("k"), UNTAGGED.fence("k"), UNTAGGED.yielded("k"), UNTAGGED.writers("k"),
        UNTAGGED.channel("k")))
        .containsExactly("baton:lock:k", "baton:fence:k", "baton:yield:k", "baton:writers:k", "baton:wake:k");
    assertThat(UNTAGGED.lockPattern("orders/*")).isEqualTo("baton:lock:orders/\\**");
    assertThat(UNTAGGED.keyOfLock("baton:lock:orders/42")).isEqualTo("orders/42");
  }

  @Test
  void onAClusterTheKeyIsTheHashTagOfEveryNameOfItsLock() {
    assertThat(Stream.of(TAGGED.lock("k"), TAGGED.fence("k"), TAGGED.yielded("k"), TAGGED.writers("k"),
        TAGGED.channel("k")))
        .containsExactly("baton:{k}:lock", "baton:{k}:fence", "baton:{k}:yield", "baton:{k}:writers", "baton:{k}:wake");
    assertThat(SlotHash.getSlot(TAGGED.lock("orders/42"))).isEqualTo(SlotHash.getSlot("orders/42"));
  }

  @Test
  void everyNameOfALockHashesToOneSlotWhateverBracesItsKeyHolds() {
    for (String key : KEYS) {
      int slot = SlotHash.getSlot(TAGGED.lock(key));
      assertThat(Stream.of(TAGGED.fence(key), TAGGED.yielded(key), TAGGED.writers(key), TAGGED.channel(key))
          .map(SlotHash::getSlot)).as("the slots of the names of '%s'", key).containsOnly(slot);
      assertThat(TAGGED.keyOfLock(TAGGED.lock(key))).isEqualTo(key);
    }
    assertThat(TAGGED.lock("a}b")).isEqualTo("baton:{a%7Db}:lock");
  }

  @Test
  void theTagOfAKeyPrefixStartsTheTagOfEveryKeyUnderIt() {
    assertThat(TAGGED.lockPattern("orders/")).isEqualTo("baton:{orders/*}:lock");
    assertThat(TAGGED.lockPattern("a}*")).isEqualTo("baton:{a%7D\\**}:lock");
    for (String key : KEYS) {
      for (int end = 0; end <= key.length(); end++) {
        assertThat(RedisKeys.tag(key)).startsWith(RedisKeys.tag(key.substring(0, end)));
      }
    }
  }

  @Test
  void aPrefixWithABraceIsRefusedOnACluster() {
    for (String prefix : List.of("{baton}:", "baton}:", "a{:")) {
      assertThatThrownBy(() -> RedisKeys.tagged(prefix)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + prefix + "' holds a brace").hasMessageContaining("without '{' and '}'");
    }
    assertThat(RedisKeys.untagged("{baton}:").lock("k")).isEqualTo("{baton}:lock:k");
  }
}
