package dev.baton.virtualthreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of every time a virtual thread was pinned to its carrier (the {@code jdk.VirtualThreadPinned}
 * event, with no threshold, so however briefly), with the stack it was pinned at.
 */
final class PinRecording implements AutoCloseable {
  private static final String PINNED = "jdk.VirtualThreadPinned";

  private final Recording recording = new Recording();

  private PinRecording() {
    recording.setName("baton-virtual-thread-pins");
    recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
  }

  /** A recording, started. */
  static PinRecording start() {
    PinRecording pins = new PinRecording();
    pins.recording.start();
    return pins;
  }

  /** Stops recording and reads the pins recorded. */
  List<Pin> stop() throws IOException {
    recording.stop();
    Path file = Files.createTempFile("baton-pins-", ".jfr");
    try {
      recording.dump(file);
      return RecordingFile.readAllEvents(file).stream()
          .filter(event -> event.getEventType().getName().equals(PINNED))
          .map(Pin::of)
          .toList();
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Override
  public void close() {
    recording.close();
  }
}
