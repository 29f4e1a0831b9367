package dev.baton.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SettingsTest {

  @Test
  void aPrefixEndsWithExactlyOneSeparator() {
    assertThat(Settings.prefix("ns", "/ns", '/', "/baton/")).isEqualTo("/ns/");
    assertThat(Settings.prefix("ns", "/ns/", '/', "/baton/")).isEqualTo("/ns/");
    assertThat(Settings.prefix("ns", "/ns//", '/', "/baton/")).isEqualTo("/ns/");
    assertThat(Settings.prefix("ns", "/", '/', "/baton/")).isEqualTo("/");
    assertThat(Settings.prefix("prefix", "orders", ':', "baton:")).isEqualTo("orders:");
  }

  @Test
  void aPrefixThatNoStoreTakesIsRejectedNamingTheSetting() {
    assertThatThrownBy(() -> Settings.prefix("The namespace", "x".repeat(1_000_000), '/', "/baton/"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContainingAll("The namespace", "1000000", String.valueOf(Settings.MAX_PREFIX_LENGTH));
    for (String bad : new String[] {null, "", "  ", "a\nb", "a\uD800"}) {
      assertThatThrownBy(() -> Settings.prefix("The namespace", bad, '/', "/baton/")).as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("The namespace")
          .hasMessageContaining("/baton/");
    }
  }
}
