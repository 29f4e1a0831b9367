package dev.baton.virtualthreads;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * One pinning of a virtual thread to its carrier, as JFR recorded it.
 *
 * @param duration how long the thread stayed pinned
 * @param reason why, as JFR tells from Java 24 on (what blocked while pinned, and what pinned): empty before
 * @param frames the stack, innermost first: {@code class.method:line}
 * @param truncated whether JFR cut the stack short
 */
record Pin(Duration duration, String reason, List<String> frames, boolean truncated) {
  /** Baton's own packages; these tests' and the test kit's frames, which run the workload, are not Baton's. */
  private static final String BATON = "dev.baton.";
  private static final List<String> NOT_BATON = List.of("dev.baton.virtualthreads.", "dev.baton.testkit.");
  /** Where the JVM loads a class or links a call site, pinning the thread that does it. */
  private static final List<String> CLASS_LOADING = List.of("java.lang.ClassLoader.loadClass",
      "jdk.internal.loader.", "java.lang.invoke.MethodHandleNatives.link");

  static Pin of(RecordedEvent event) {
    String reason = Stream.of("blockingOperation", "pinnedReason").filter(event::hasField)
        .map(event::getString).collect(Collectors.joining(", "));
    RecordedStackTrace stack = event.getStackTrace();
    if (stack == null) {
      return new Pin(event.getDuration(), reason, List.of(), true);
    }
    return new Pin(event.getDuration(), reason, stack.getFrames().stream().map(Pin::frame).toList(),
        stack.isTruncated());
  }

  /** Whether Baton's code is on the stack: Baton pinned the thread, or called what pinned it. */
  boolean inBaton() {
    return frames.stream().anyMatch(Pin::isBaton);
  }

  /**
   * Whether the JVM pinned the thread to load a class, link a call site or wait for another thread to initialize a
   * class: once per class and call site, whatever the code that uses them.
   */
  boolean loadsClass() {
    return reason.contains("initialization of")
        || frames.stream().anyMatch(frame -> CLASS_LOADING.stream().anyMatch(frame::startsWith));
  }

  /** The innermost frame, where the thread was pinned. */
  String where() {
    return frames.isEmpty() ? "(no stack)" : frames.get(0);
  }

  /** The pin with its whole stack, for a failure message. */
  String describe() {
    return "pinned " + duration.toNanos() / 1_000 + " µs" + (reason.isEmpty() ? "" : " (" + reason + ")") + (truncated ? " (stack truncated)" : "") + "\n    at "
        + String.join("\n    at ", frames);
  }

  private static boolean isBaton(String frame) {
    return frame.startsWith(BATON) && NOT_BATON.stream().noneMatch(frame::startsWith);
  }

  private static String frame(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":" + frame.getLineNumber();
  }
}
