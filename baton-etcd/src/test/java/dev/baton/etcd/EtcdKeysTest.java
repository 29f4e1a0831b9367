package dev.baton.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.QueueRule;
import io.etcd.jetcd.ByteSequence;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Entry names: what each says of its mode, and the range of names a shared entry reads. */
class EtcdKeysTest {
  private static final long LEASE = 0x694d8a1b2c3d4e5fL;
  private final EtcdKeys keys = new EtcdKeys("/baton/", false);

  @Test
  void anExclusiveEntryIsNamedAsBeforeAndTheOthersByTheirMarkLeaseAndSlot() {
    assertThat(text(keys.entry("orders/42", LEASE))).isEqualTo("/baton/orders/42\u0000694d8a1b2c3d4e5f");
    assertThat(text(keys.entry("orders/42", LEASE, QueueRule.SHARED, 0)))
        .isEqualTo("/baton/orders/42\u0000~s/694d8a1b2c3d4e5f/0");
    assertThat(text(keys.entry("orders/42", LEASE, QueueRule.permits(3), 2)))
        .isEqualTo("/baton/orders/42\u0000~p3/694d8a1b2c3d4e5f/2");
  }

  @Test
  void compatibleWithEtcdsLockAnEntryIsKeySlashLeaseAndANestedKeysEntryIsToldApart() {
    EtcdKeys etcds = new EtcdKeys("", true);
    assertThat(text(etcds.entry("jobs/nightly", LEASE))).isEqualTo("jobs/nightly/694d8a1b2c3d4e5f");
    assertThat(etcds.keyOf(etcds.entry("jobs/nightly", LEASE))).isEqualTo("jobs/nightly");
    assertThat(etcds.ruleOf(EtcdKeys.bytes("jobs/nightly/\u00e9t\u00e9"))).isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(etcds.nestedKeyOf("jobs", etcds.entry("jobs/nightly", LEASE))).isEqualTo("jobs/nightly");
    assertThat(etcds.nestedKeyOf("jobs/nightly", etcds.entry("jobs/nightly", LEASE))).isNull();
    assertThat(keys.nestedKeyOf("k", keys.entry("k", LEASE, QueueRule.SHARED, 7))).as("Baton's own names").isNull();
  }

  @Test
  void everyNameReadsBackAsTheRuleThatWroteIt() {
    assertThat(keys.ruleOf(keys.entry("k", LEASE))).isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(keys.ruleOf(keys.entry("k", -1L))).as("a lease whose hex has 16 digits")
        .isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(keys.ruleOf(keys.entry("k", LEASE, QueueRule.SHARED, 7))).isEqualTo(QueueRule.SHARED);
    assertThat(keys.ruleOf(keys.entry("k", LEASE, QueueRule.permits(12), 0))).isEqualTo(QueueRule.permits(12));
    assertThat(keys.keyOf(keys.entry("orders/42", LEASE, QueueRule.SHARED, 1))).isEqualTo("orders/42");
  }

  @Test
  void namesNoBatonWroteCountAsExclusiveBelowTheMarkAndAsAPermitFromIt() {
    assertThat(keys.ruleOf(EtcdKeys.bytes("/baton/k\u0000operator-note"))).isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(keys.ruleOf(EtcdKeys.bytes("/baton/k\u0000"))).isEqualTo(QueueRule.EXCLUSIVE);
    assertThat(keys.ruleOf(EtcdKeys.bytes("/baton/k\u0000~x"))).isEqualTo(QueueRule.permits(1));
    assertThat(keys.ruleOf(EtcdKeys.bytes("/baton/k\u0000~pmany/1"))).isEqualTo(QueueRule.permits(1));
    assertThat(keys.ruleOf(EtcdKeys.bytes("/baton/k\u0000\u00e9"))).isEqualTo(QueueRule.permits(1));
  }

  /** A shared entry reads the names from the key's prefix to the mark: exactly those that count as exclusive. */
  @Test
  void theExclusiveRangeHoldsEveryExclusiveNameAndNoOther() {
    ByteSequence from = keys.entries("k");
    ByteSequence end = keys.exclusiveEntriesEnd("k");
    for (ByteSequence exclusive : new ByteSequence[] {keys.entry("k", LEASE), keys.entry("k", -1L),
        EtcdKeys.bytes("/baton/k\u0000operator-note")}) {
      assertThat(compare(exclusive, from)).isNotNegative();
      assertThat(compare(exclusive, end)).as(text(exclusive)).isNegative();
    }
    for (ByteSequence marked : new ByteSequence[] {keys.entry("k", LEASE, QueueRule.SHARED, 0),
        keys.entry("k", LEASE, QueueRule.permits(2), 0), EtcdKeys.bytes("/baton/k\u0000\u00e9")}) {
      assertThat(compare(marked, end)).as(text(marked)).isNotNegative();
    }
  }

  /** etcd's order: unsigned bytes. */
  private static int compare(ByteSequence a, ByteSequence b) {
    return Arrays.compareUnsigned(a.getBytes(), b.getBytes());
  }

  private static String text(ByteSequence bytes) {
    return EtcdKeys.text(bytes);
  }
}
