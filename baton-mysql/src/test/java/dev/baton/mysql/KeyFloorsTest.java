package dev.baton.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The floors from which the reads of a key's queue start. */
class KeyFloorsTest {
  @Test
  void aFloorOnlyRises() {
    KeyFloors floors = new KeyFloors();
    assertThat(floors.of("a")).isZero();
    floors.raise("a", 7);
    floors.raise("a", 5);
    assertThat(floors.of("a")).isEqualTo(7);
    floors.raise("a", 9);
    assertThat(floors.of("a")).isEqualTo(9);
    assertThat(floors.of("b")).isZero();
  }

  @Test
  void pastTheMostKeysTheFloorsStartAgainFromTheWholeKey() {
    KeyFloors floors = new KeyFloors();
    for (int i = 0; i < KeyFloors.MAX_KEYS; i++) {
      floors.raise("key-" + i, 10);
    }
    floors.raise("key-0", 11);
    assertThat(floors.of("key-0")).isEqualTo(11);
    floors.raise("one-more", 12);
    assertThat(floors.of("key-0")).isZero();
    assertThat(floors.of("one-more")).isEqualTo(12);
  }
}
