package dev.baton.torture;

import dev.baton.torture.History.Kind;
import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a worker does while it holds, each step in its history with the time the register served it: a holder
 * alone (a lock, a write lock, a leader) reads the register, pauses and writes the value it read plus one; a reader
 * reads and pauses; a permit holder only pauses, long enough for others to hold beside it.
 */
final class HeldWork {
  private final RegisterConnection register;
  private final WorkerHistory history;
  private final long workMillis;
  private final String worker;

  HeldWork(RegisterConnection register, WorkerHistory history, long workMillis, String worker) {
    this.register = register;
    this.history = history;
    this.workMillis = workMillis;
    this.worker = worker;
  }

  /** Reads, pauses, writes what it read plus one, all with {@code token}. */
  void readPauseWrite(long token) throws IOException, InterruptedException {
    long read = read("READ", token);
    if (read < 0) {
      return;
    }
    pause();
    String answer = register.ask("WRITE " + token + " " + read + " " + worker);
    if (answer.startsWith("OK ")) {
      history.record(Long.parseLong(answer.substring("OK ".length())), Kind.WRITE_OK, token, "OK");
    } else {
      history.record(Kind.WRITE_REJECTED, token, answer);
    }
  }

  /** Reads as one reader among others, and pauses. */
  void readAndPause(long token) throws IOException, InterruptedException {
    if (read("READ_SHARED", token) >= 0) {
      pause();
    }
  }

  /** The work itself: a pause of 1 ms to the work time. */
  void pause() throws InterruptedException {
    Thread.sleep(ThreadLocalRandom.current().nextLong(1, workMillis + 1));
  }

  /** The value read, or -1 when the register fenced the read off. */
  private long read(String request, long token) throws IOException {
    String answer = register.ask(request + " " + token);
    if (!answer.startsWith("VALUE ")) {
      history.record(Kind.READ_REJECTED, token, answer);
      return -1;
    }
    String[] words = answer.split(" ");
    history.record(Long.parseLong(words[2]), Kind.READ, token, answer);
    return Long.parseLong(words[1]);
  }
}
