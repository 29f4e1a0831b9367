package dev.baton.engine;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeyChecksTest {

  @Test
  void acceptsPrintableKeys() {
    assertThatCode(() -> KeyChecks.check("orders/42")).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.check("ü:ñ/空 space")).doesNotThrowAnyException();
    assertThatCode(() -> KeyChecks.check("k".repeat(KeyChecks.MAX_LENGTH))).doesNotThrowAnyException();
  }

  @Test
  void rejectsNullBlankLongAndControlCharacters() {
    assertThatThrownBy(() -> KeyChecks.check(null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null");
    assertThatThrownBy(() -> KeyChecks.check(" \t")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
    assertThatThrownBy(() -> KeyChecks.check("k".repeat(300))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("300");
    assertThatThrownBy(() -> KeyChecks.check("a\nb")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a\\u000ab").hasMessageContaining("U+000A").hasMessageContaining("index 1");
  }
}
