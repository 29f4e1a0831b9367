package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.QueueRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lock node names and the rules they tell, without a server. */
class LockNodesTest {
  private static final String SEQUENCE = "0000000042";

  @Test
  void aLockKeepsCuratorsMutexNameAndAReadLockTakesCuratorsReadMark() {
    assertThat(LockNodes.prefix("c1:7", QueueRule.EXCLUSIVE)).isEqualTo("_c_c1:7-lock-");
    assertThat(LockNodes.prefix("c1:7", QueueRule.SHARED)).isEqualTo("_c_c1:7-__READ__");
    assertThat(LockNodes.prefix("c1:7", QueueRule.permits(3))).isEqualTo("_c_c1:7-permits-3-");
  }

  @Test
  void everyNameTellsTheRuleItWasMadeFor() {
    for (QueueRule rule : List.of(QueueRule.EXCLUSIVE, QueueRule.SHARED, QueueRule.permits(1), QueueRule.permits(250))) {
      assertThat(LockNodes.rule(LockNodes.prefix("c1:7", rule) + SEQUENCE)).as("%s", rule).isEqualTo(rule);
    }
  }

  @Test
  void theMarkIsReadFromTheEndWhateverTheOwnerIdHolds() {
    assertThat(LockNodes.rule(LockNodes.prefix("a-lock-b", QueueRule.SHARED) + SEQUENCE)).isEqualTo(QueueRule.SHARED);
    assertThat(LockNodes.rule(LockNodes.prefix("a-permits-2-", QueueRule.EXCLUSIVE) + SEQUENCE))
        .isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(LockNodes.rule(LockNodes.prefix("a-__READ__", QueueRule.permits(2)) + SEQUENCE))
        .isEqualTo(QueueRule.permits(2));
  }

  @Test
  void otherNodesAreNoEntries() {
    assertThat(List.of(
        "_c_uuid-__WRIT__" + SEQUENCE, // Curator's write lock: left for a later compatibility mode
        "lock-" + SEQUENCE, // not protected
        "_c_c1:7-lock-42", // a sequence of the wrong length
        "_c_c1:7-permits-0-" + SEQUENCE,
        "_c_c1:7-permits--" + SEQUENCE,
        "_c_c1:7-permits-x-" + SEQUENCE,
        "_c_c1:7-permits-9999999999-" + SEQUENCE,
        "_c_c1:7-permits-3" + SEQUENCE,
        "orders"))
        .allSatisfy(name -> assertThat(LockNodes.rule(name)).as(name).isNull());
  }
}
