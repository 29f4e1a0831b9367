package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.etcd.EntryNames.OwnEntry;
import dev.baton.spi.QueueRule;
import org.junit.jupiter.api.Test;

/** How a client names its entries: one exclusive name per lease and key, and the lowest free slot for the others. */
class EntryNamesTest {
  private static final long LEASE = 0xabcL;
  private final EntryNames names = new EntryNames(new EtcdKeys("/baton/", false));

  @Test
  void acquisitionsUnderWayTakeTheLowestFreeSlotsAndEndedOnesGiveThemBack() {
    OwnEntry first = names.take("k", LEASE, QueueRule.SHARED);
    OwnEntry second = names.take("k", LEASE, QueueRule.SHARED);
    assertThat(slot(first)).isEqualTo("0");
    assertThat(slot(second)).isEqualTo("1");
    assertThat(slot(names.take("other", LEASE, QueueRule.SHARED))).as("another key's first slot").isEqualTo("0");

    first.free();

    assertThat(slot(names.take("k", LEASE, QueueRule.permits(2)))).as("the freed slot, taken again").isEqualTo("0");
    assertThat(slot(names.take("k", LEASE, QueueRule.SHARED))).isEqualTo("2");
  }

  @Test
  void aSecondFreeOfAnEndedAcquisitionLeavesItsSlotToTheOneThatTookItSince() {
    OwnEntry released = names.take("k", LEASE, QueueRule.SHARED);
    released.free();
    OwnEntry next = names.take("k", LEASE, QueueRule.SHARED);

    released.free(); // a release retried in the background

    assertThat(slot(next)).isEqualTo("0");
    assertThat(slot(names.take("k", LEASE, QueueRule.SHARED))).as("a slot beside the one still in use").isEqualTo("1");
  }

  @Test
  void aLeaseThatIsGoneFreesEverySlotOfIt() {
    names.take("k", LEASE, QueueRule.SHARED);
    names.take("k", LEASE, QueueRule.SHARED);
    OwnEntry onAnotherLease = names.take("k", LEASE + 1, QueueRule.SHARED);

    names.forget(LEASE);

    assertThat(slot(names.take("k", LEASE, QueueRule.SHARED))).isEqualTo("0");
    assertThat(slot(names.take("k", LEASE + 1, QueueRule.SHARED))).isEqualTo("1");
    assertThat(slot(onAnotherLease)).isEqualTo("0");
  }

  @Test
  void exclusiveAcquisitionsShareTheirLeasesOneName() {
    OwnEntry first = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    OwnEntry second = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    assertThat(second.name()).isEqualTo(first.name());
    assertThat(EtcdKeys.text(first.name())).isEqualTo("/baton/k\u0000abc");
  }

  @Test
  void onlyTheLatestAcquisitionOfAnExclusiveNameMayDeleteByIt() {
    OwnEntry lost = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    OwnEntry next = names.take("k", LEASE, QueueRule.EXCLUSIVE); // the key's turn went on while lost was not released

    assertThat(lost.claimDeleteByName()).as("the earlier acquisition, released late").isFalse();
    assertThat(next.claimDeleteByName()).isTrue();

    lost.free();
    assertThat(next.claimDeleteByName()).as("still the latest after the earlier one ended").isTrue();
    next.free();
    assertThat(next.claimDeleteByName()).as("ended: a retried release deletes by create revision").isFalse();
  }

  /**
   * The background release of an entry found lost runs beside the key's next acquisition by another thread of the
   * client (the loss passed the key's turn on): a delete by name it decided on must not meet the name that acquisition
   * puts, however late the delete arrives.
   */
  @Test
  void aNameClaimedForADeleteIsNotGivenToTheNextAcquisitionBeforeThatDeleteIsAnswered() {
    OwnEntry lost = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    assertThat(lost.claimDeleteByName()).as("the lost entry's background release: a plain delete").isTrue();

    OwnEntry next = names.take("k", LEASE, QueueRule.EXCLUSIVE); // before that delete is sent, or answered

    assertThat(next.name()).isNotEqualTo(lost.name());
    assertThat(lost.claimDeleteByName()).as("no longer the latest").isFalse();
    assertThat(next.claimDeleteByName()).isTrue();
  }

  @Test
  void anExclusiveNameWhoseDeleteWentUnansweredIsNotWrittenAgainOnThatLease() {
    OwnEntry unanswered = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    assertThat(unanswered.claimDeleteByName()).isTrue();

    unanswered.retire();
    unanswered.retire(); // a retried release that went unanswered again

    OwnEntry next = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    assertThat(EtcdKeys.text(next.name())).isEqualTo("/baton/k\u0000abc/1");
    assertThat(new EtcdKeys("/baton/", false).ruleOf(next.name())).as("still an exclusive name")
        .isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(names.take("other", LEASE, QueueRule.EXCLUSIVE).name()).as("another key's name")
        .isEqualTo(new EtcdKeys("/baton/", false).entry("other", LEASE));

    next.retire();
    assertThat(EtcdKeys.text(names.take("k", LEASE, QueueRule.EXCLUSIVE).name())).isEqualTo("/baton/k\u0000abc/2");

    names.forget(LEASE);
    assertThat(EtcdKeys.text(names.take("k", LEASE + 1, QueueRule.EXCLUSIVE).name())).as("a new lease's first name")
        .isEqualTo("/baton/k\u0000abd");
  }

  @Test
  void onlyExclusiveNamesOutsideEtcdsOwnLockAreDeletedByName() {
    assertThat(names.take("k", LEASE, QueueRule.SHARED).claimDeleteByName()).isFalse();
    assertThat(names.take("k", LEASE, QueueRule.permits(2)).claimDeleteByName()).isFalse();
    assertThat(new EntryNames(new EtcdKeys("", true)).take("k", LEASE, QueueRule.EXCLUSIVE).claimDeleteByName())
        .as("compatible with etcd's own lock, the name stays K/LEASE").isFalse();
  }

  private static String slot(OwnEntry entry) {
    String name = EtcdKeys.text(entry.name());
    return name.substring(name.lastIndexOf('/') + 1);
  }
}
