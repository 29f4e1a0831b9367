package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockHolder;
import dev.baton.spi.AcquireRequest;
import dev.baton.spi.HolderRecord;
import dev.baton.spi.QueueRule;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/** A rewritten lock node keeps the token it was granted with, which its mzxid no longer is. */
class RewrittenRecordsTest {
  private static final LockHolder HOLDER = new LockHolder("host", 7, "token=99", Instant.EPOCH, Duration.ZERO,
      Optional.empty());

  @Test
  void aRewrittenNodeShowsItsGrantsTokenAndItsNewHolder() {
    AcquireRequest request = new AcquireRequest("k", "client:1", QueueRule.EXCLUSIVE, Duration.ofSeconds(30), null,
        true, true, HOLDER);
    LockHolder.MultiLock keys = LockHolder.MultiLock.of(List.of("a", "k"));
    byte[] data = RewrittenRecords.data(new ZkGrant(request, "/k/n", 1, 40, 42),
        HOLDER.withMultiLock(keys));
    String text = new String(data, StandardCharsets.UTF_8);

    assertThat(RewrittenRecords.token(text, stat(57))).isEqualTo(42);
    HolderRecord record = HolderRecord.read(text);
    assertThat(record.ownerId()).isEqualTo("client:1");
    assertThat(record.holder()).hasValueSatisfying(holder -> {
      assertThat(holder.multiLock()).contains(keys);
      assertThat(holder.thread()).as("a value that looks like a token line").isEqualTo("token=99");
    });
  }

  @Test
  void aNodeNeverRewrittenShowsItsMzxid() {
    String text = HolderRecord.write("client:1", HOLDER);
    assertThat(RewrittenRecords.token(text, stat(57))).isEqualTo(57);
    assertThat(RewrittenRecords.token("", stat(58))).isEqualTo(58);
  }

  private static Stat stat(long mzxid) {
    Stat stat = new Stat();
    stat.setMzxid(mzxid);
    return stat;
  }
}
