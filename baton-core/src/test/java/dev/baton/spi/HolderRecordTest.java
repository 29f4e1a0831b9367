package dev.baton.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockHolder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HolderRecordTest {
  private static final Instant SINCE = Instant.parse("2026-11-24T23:59:58.123456789Z");

  @Test
  void readsBackWhatItWrote() {
    LockHolder holder = new LockHolder("host-1", 4242, "worker-7", SINCE);

    HolderRecord record = HolderRecord.read(HolderRecord.write("owner-1:17", holder));

    assertThat(record.ownerId()).isEqualTo("owner-1:17");
    assertThat(record.holder()).contains(holder);
  }

  @Test
  void aLingeringHolderReadsBackItsLingerAndOthersWriteNoLingerLine() {
    LockHolder lingering = new LockHolder("host-1", 4242, "worker-7", SINCE).withLinger(Duration.ofSeconds(5));

    String text = HolderRecord.write("owner-1:17", lingering);

    assertThat(text).endsWith("linger=5000\n");
    assertThat(HolderRecord.read(text).holder()).contains(lingering);
    assertThat(HolderRecord.write("o", new LockHolder("h", 1, "t", SINCE))).doesNotContain("linger");
  }

  @Test
  void aKeyHeldForAMultiLockReadsBackItsSetAndALockOnItsOwnHasNone() {
    LockHolder.MultiLock multi = LockHolder.MultiLock.of(List.of("accounts/1", "accounts/2", "accounts/3"));
    LockHolder holder = new LockHolder("host-1", 4242, "worker-7", SINCE).withMultiLock(multi);

    assertThat(HolderRecord.write(holder)).endsWith("\nmulti=3 " + multi.set() + "\n");
    assertThat(HolderRecord.read(HolderRecord.write("owner-1:17", holder)).holder()).contains(holder);
    assertThat(HolderRecord.read(HolderRecord.write(holder)).holder()).contains(holder);
    assertThat(HolderRecord.write(new LockHolder("host-1", 4242, "worker-7", SINCE))).doesNotContain("multi");
    assertThat(multi).isEqualTo(LockHolder.MultiLock.of(List.of("accounts/1", "accounts/2", "accounts/3")))
        .isNotEqualTo(LockHolder.MultiLock.of(List.of("accounts/1", "accounts/23")));
  }

  @Test
  void aMultiLineThatDoesNotReadAsOneIsLeftOut() {
    String text = HolderRecord.write("o", new LockHolder("h", 1, "t", SINCE));
    for (String bad : new String[] {"multi=3", "multi=x 5f2a", "multi= 5f2a", "multi=3 "}) {
      assertThat(HolderRecord.read(text + bad + "\n").holder()).as(bad).get()
          .extracting(LockHolder::multiLock).isEqualTo(Optional.empty());
    }
  }

  @Test
  void keepsTheAcquireTimeToTheNanosecond() {
    for (Instant since : new Instant[] {SINCE, SINCE.plusNanos(1), Instant.ofEpochSecond(SINCE.getEpochSecond()), SINCE.plusSeconds(86_400 * 400),
        Instant.EPOCH, Instant.parse("1969-12-31T23:59:59.5Z")}) {
      LockHolder holder = new LockHolder("h", 1, "t", since);

      assertThat(HolderRecord.read(HolderRecord.write("o", holder)).holder()).contains(holder);
    }
  }

  @Test
  void aThreadNameWithLineBreaksStaysOneField() {
    LockHolder holder = new LockHolder("host-1", 1, "evil\nowner=someone-else\r\u0000\u007f", SINCE);

    HolderRecord record = HolderRecord.read(HolderRecord.write("owner-1:1", holder));

    assertThat(record.ownerId()).isEqualTo("owner-1:1");
    assertThat(record.holder()).get().extracting(LockHolder::thread).isEqualTo("evil owner=someone-else   ");
  }

  @Test
  void longValuesAreCutWithoutSplittingACharacter() {
    String name = "x" + "\uD83D\uDD12".repeat(HolderRecord.MAX_VALUE_LENGTH); // a lock emoji: two chars each

    HolderRecord record = HolderRecord.read(HolderRecord.write("o", new LockHolder("h", 1, name, SINCE)));

    String thread = record.holder().orElseThrow().thread();
    assertThat(name).startsWith(thread);
    assertThat(thread.length()).isBetween(HolderRecord.MAX_VALUE_LENGTH, HolderRecord.MAX_VALUE_LENGTH + 1);
    assertThat(Character.isHighSurrogate(thread.charAt(thread.length() - 1))).isFalse();
  }

  @Test
  void textWithoutLinesIsABareOwnerId() {
    HolderRecord record = HolderRecord.read("owner-of-an-older-baton");

    assertThat(record.ownerId()).isEqualTo("owner-of-an-older-baton");
    assertThat(record.holder()).isEmpty();
  }
}
