package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyChecksTest {

  @Test
  void acceptsPrintableKeys() {
    assertThatCode(() -> KeyChecks.check("orders/42")).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.check("ü:ñ/空 space")).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.check("k".repeat(KeyChecks.MAX_LENGTH))).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.check("order \uD83D\uDE00 42")).doesNotThrowAnyException();
  }

  /** Java strings that encode to the same bytes (an unpaired surrogate becomes '?') would be one lock at the store. */
  @Test
  void rejectsUnpairedSurrogates() {
    for (String key : new String[] {"coll\uD800", "coll\uDC00", "\uDE00coll", "a\uD83Db", "a\uDE00\uD83Db"}) {
      assertThatThrownBy(() -> KeyChecks.check(key)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unpaired surrogate");
    }
    assertThatThrownBy(() -> KeyChecks.check("coll\uD800")).hasMessageContaining("coll\\ud800");
  }

  @Test
  void aLongKeyIsShownWithoutCuttingACharacterInTwo() {
    String emoji = "\uD83D\uDE00";
    String key = "k" + emoji.repeat(200);
    assertThatThrownBy(() -> KeyChecks.check(key)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("401").hasMessageNotContaining("\\u");
    assertThatThrownBy(() -> KeyChecks.check(key)).satisfies(e ->
        assertThat(new String(e.getMessage().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
            .as("the message is whole text: it survives encoding").isEqualTo(e.getMessage()));
  }

  @Test
  void rejectsNullBlankLongAndControlCharacters() {
    assertThatThrownBy(() -> KeyChecks.check(null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
    assertThatThrownBy(() -> KeyChecks.check(" \t")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
    assertThatThrownBy(() -> KeyChecks.check("k".repeat(300))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("300");
    assertThatThrownBy(() -> KeyChecks.check("a\nb")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a\\u000ab").hasMessageContaining("U+000A").hasMessageContaining("index 1");
  }

  @Test
  void aPrefixToListIsCheckedAsKeysAreButMayBeEmptyOrBlank() {
    assertThatCode(() -> KeyChecks.checkPrefix("")).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.checkPrefix(" ")).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.checkPrefix("orders/")).doesNotThrowAnyException();
    assertThatThrownBy(() -> KeyChecks.checkPrefix(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("null").hasMessageContaining("\"\"");
    assertThatThrownBy(() -> KeyChecks.checkPrefix("p".repeat(300))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("300");
    assertThatThrownBy(() -> KeyChecks.checkPrefix("a\tb")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key prefix 'a\\u0009b'");
    assertThatThrownBy(() -> KeyChecks.checkPrefix("coll\uD800")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate").hasMessageContaining("coll\\ud800");
  }
}
