package dev.baton.bench.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/**
 * The keys of one {@link Hold#MULTI_LOCK} cycle: {@value #PER_HOLD} random keys of the {@value #KEYS} under a
 * prefix, {@code PREFIX/0} to {@code PREFIX/9}, in ascending order (the order Baton's multi-lock takes them in, and the
 * order single locks must be taken in not to deadlock).
 */
final class KeySet {
  /** How many keys the sets are drawn from. */
  static final int KEYS = 10;
  /** How many keys each cycle holds. */
  static final int PER_HOLD = 3;

  private KeySet() {}

  /** A new random set of keys under {@code prefix}, ascending. */
  static List<String> random(String prefix) {
    List<Integer> all = new ArrayList<>(IntStream.range(0, KEYS).boxed().toList());
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < PER_HOLD; i++) {
      int j = i + random.nextInt(KEYS - i);
      all.set(j, all.set(i, all.get(j)));
    }
    return all.subList(0, PER_HOLD).stream().sorted().map(k -> prefix + "/" + k).toList();
  }
}
