package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** How the demo report lists the fencing tokens it saw. */
class GrantOrderTest {

  @Test
  void showsAFewTokensAllTenALine() {
    assertThat(GrantOrder.lines(List.of(7L, 9L, 12L))).containsExactly("7 9 12");
    assertThat(GrantOrder.lines(tokens(1, 20))).containsExactly("1 2 3 4 5 6 7 8 9 10", "11 12 13 14 15 16 17 18 19 20");
  }

  @Test
  void showsBothEndsOfManyWithHowManyAreLeftOut() {
    assertThat(GrantOrder.lines(tokens(101, 1_600))).containsExactly(
        "101 102 103 104 105 106 107 108 109 110",
        "... 1,480 more ...",
        "1591 1592 1593 1594 1595 1596 1597 1598 1599 1600");
  }

  @Test
  void keepsTheGrantOrderEvenWhenItIsWrong() {
    assertThat(GrantOrder.lines(List.of(5L, 3L, 4L))).containsExactly("5 3 4");
  }

  @Test
  void showsNothingForNoTokens() {
    assertThat(GrantOrder.lines(List.of())).isEmpty();
  }

  private static List<Long> tokens(long first, long last) {
    return LongStream.rangeClosed(first, last).boxed().toList();
  }
}
