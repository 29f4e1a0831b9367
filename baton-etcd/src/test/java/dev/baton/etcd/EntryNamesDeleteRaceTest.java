package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.etcd.EntryNames.OwnEntry;
import dev.baton.spi.QueueRule;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The background release of an exclusive entry found lost (HeldEntry.lose schedules it before it passes the key's
 * turn on) runs beside the next acquisition of the key by another thread of the client. EtcdBackend.release asks
 * {@link OwnEntry#deletableByName()} and sends its plain delete afterwards: if the next acquisition takes the name in
 * between, it gets the same name, puts its entry under it, and the delete, arriving after that put, removes it while
 * its holder counts it as held.
 */
class EntryNamesDeleteRaceTest {
  private static final long LEASE = 0xabcL;
  private final EntryNames names = new EntryNames(new EtcdKeys("/baton/", false));

  @Test
  @Disabled("defect: EtcdBackend.release checks deletableByName() then sends a delete by name; a take() of the name in"
      + " between (the next acquisition, the key's turn passed on by the loss) gets the same name, which that delete"
      + " then removes")
  void aNameThatAReleaseDecidedToDeleteByIsNotGivenToTheNextAcquisitionBeforeThatDeleteIsAnswered() {
    OwnEntry lost = names.take("k", LEASE, QueueRule.EXCLUSIVE);
    assertThat(lost.deletableByName()).as("the lost entry's background release: a plain delete").isTrue();

    OwnEntry next = names.take("k", LEASE, QueueRule.EXCLUSIVE); // before that delete is sent, or answered

    assertThat(next.name()).as("the next acquisition's name, while a delete by the lost one's may be on its way")
        .isNotEqualTo(lost.name());
  }
}
