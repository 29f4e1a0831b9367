package dev.baton.spi;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

  @Test
  void sortsAsTheUtf8BytesDo() {
    List<String> keys = new ArrayList<>(List.of("orders/b", "orders", "orders/b/c", "orders-2", "orders/bb",
        "\uFF01", "\uD83D\uDE00", "orders/a"));
    keys.sort(KeyOrder.BY_CODE_POINT);
    assertThat(keys).containsExactly("orders", "orders-2", "orders/a", "orders/b", "orders/b/c", "orders/bb",
        "\uFF01", "\uD83D\uDE00");
    List<String> byBytes = new ArrayList<>(keys);
    byBytes.sort((a, b) -> Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8)));
    assertThat(keys).isEqualTo(byBytes);
  }
}
