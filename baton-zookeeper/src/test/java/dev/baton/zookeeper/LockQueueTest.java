package dev.baton.zookeeper;

import static dev.baton.LockStatus.Mode.EXCLUSIVE;
import static dev.baton.LockStatus.Mode.SHARED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.QueueRule;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Who holds in a queue as listed, without a server. */
class LockQueueTest {

  /** A node of {@code owner} under {@code rule}, with sequence {@code sequence}. */
  static String node(String owner, QueueRule rule, int sequence) {
    return LockNodes.prefix(owner, rule) + String.format("%010d", sequence);
  }

  /** A queue of nodes under these rules, in this order, listed in reverse (as the server lists in no order). */
  static LockQueue queueOf(QueueRule... rules) {
    List<String> children = IntStream.range(0, rules.length).map(i -> rules.length - 1 - i)
        .mapToObj(i -> node("z" + (rules.length - i), rules[i], i)).toList();
    return LockQueue.of(children);
  }

  @Test
  void theQueueIsInOrderOfSequenceAndOtherNodesAreLeftOut() {
    String first = node("z", QueueRule.SHARED, 3);
    String second = node("a", QueueRule.EXCLUSIVE, 11);
    LockQueue queue = LockQueue.of(List.of(second, "_c_uuid-__WRIT__0000000005", "orders", first));

    assertThat(queue.size()).isEqualTo(2);
    assertThat(queue.name(0)).isEqualTo(first);
    assertThat(queue.indexOf(second)).isEqualTo(1);
    assertThat(queue.modesBefore(2)).containsExactly(SHARED, EXCLUSIVE);
  }

  @Test
  void readersHoldTogetherUntilAWriterAndEveryoneBehindItWaits() {
    LockQueue queue = queueOf(QueueRule.SHARED, QueueRule.SHARED, QueueRule.EXCLUSIVE, QueueRule.SHARED);

    assertThat(IntStream.range(0, 4).mapToObj(queue::holds)).containsExactly(true, true, false, false);
    assertThat(queue.waiting()).isEqualTo(2);
    assertThat(queue.withoutOldest(2).waiting()).as("once the readers have gone").isEqualTo(1);
  }

  @Test
  void permitsHoldAsManyAsTheyNumber() {
    QueueRule two = QueueRule.permits(2);
    LockQueue queue = queueOf(two, two, two, two);

    assertThat(IntStream.range(0, 4).mapToObj(queue::holds)).containsExactly(true, true, false, false);
    assertThat(queue.waiting()).isEqualTo(2);
  }

  @Test
  void anEmptyQueueHasNobodyWaiting() {
    assertThat(LockQueue.of(List.of("orders")).isEmpty()).isTrue();
    assertThat(LockQueue.of(List.of()).waiting()).isZero();
  }
}
