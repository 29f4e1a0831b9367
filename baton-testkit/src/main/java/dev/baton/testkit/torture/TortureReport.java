package dev.baton.testkit.torture;

import dev.baton.testkit.torture.TortureResult.Hold;
import dev.baton.testkit.torture.TortureResult.Violation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Writes a torture's report: {@code summary.txt}, {@code result.json} and {@code timeline.svg}, a picture
 * with one lane per worker, each hold a bar labelled with its token (grey when the holder was told it lost
 * the lock or was paused, red when it took part in a violation), pauses and kills marked on their lane, and
 * faults of the store as spans across every lane.
 */
final class TortureReport {
  private static final int LANE = 28;
  private static final int LEFT = 60;
  private static final int WIDTH = 1400;

  private TortureReport() {}

  static void write(TortureResult result, Path dir) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("summary.txt"), result.summary());
      Files.writeString(dir.resolve("result.json"), json(result));
      Files.writeString(dir.resolve("timeline.svg"), svg(result));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the torture report to " + dir + ": " + e.getMessage(), e);
    }
  }

  static String json(TortureResult result) {
    long start = result.startNanos();
    String holds = result.holds().stream().map(hold -> String.format(Locale.ROOT,
        "{\"worker\":\"%s\",\"token\":%d,\"startMs\":%.3f,\"endMs\":%.3f,\"lost\":%b,\"paused\":%b,\"write\":\"%s\"}",
        hold.worker(), hold.token(), millis(hold.startNanos() - start), millis(hold.endNanos() - start), hold.lost(),
        hold.paused(), hold.write())).collect(Collectors.joining(",\n    "));
    String faults = result.faults().stream().map(fault -> String.format(Locale.ROOT,
        "{\"fault\":\"%s\",\"worker\":%s,\"startMs\":%.3f,\"endMs\":%.3f}", fault.fault().option(),
        fault.worker() == null ? "null" : "\"" + fault.worker() + "\"", millis(fault.startNanos() - start),
        millis(fault.endNanos() - start))).collect(Collectors.joining(",\n    "));
    String violations = result.violations().stream().map(violation -> String.format(Locale.ROOT,
        "{\"what\":\"%s\",\"atMs\":%.3f,\"workers\":[%s]}", violation.what().replace("\"", "'"),
        millis(violation.atNanos() - start), violation.workers().stream().map(w -> "\"" + w + "\"")
            .collect(Collectors.joining(",")))).collect(Collectors.joining(",\n    "));
    return "{\n  \"passed\": " + result.passed()
        + ",\n  \"target\": \"" + result.options().target() + "\""
        + ",\n  \"key\": \"" + result.options().key() + "\""
        + ",\n  \"workers\": " + result.options().workers()
        + ",\n  \"ttlMs\": " + result.options().ttl().toMillis()
        + ",\n  \"durationMs\": " + (long) millis(result.endNanos() - start)
        + ",\n  \"acceptedWrites\": " + result.acceptedWrites()
        + ",\n  \"rejectedWrites\": " + result.rejectedWrites()
        + ",\n  \"lostUpdates\": " + result.lostUpdates()
        + ",\n  \"tokensIncreased\": " + result.tokensIncreased()
        + ",\n  \"explainedOverlaps\": " + result.explainedOverlaps()
        + ",\n  \"longestGapAfterFaultMs\": " + result.longestGapAfterFault().toMillis()
        + ",\n  \"timeouts\": " + result.timeouts()
        + ",\n  \"errors\": " + result.errors()
        + ",\n  \"holds\": [\n    " + holds + "\n  ]"
        + ",\n  \"faults\": [\n    " + faults + "\n  ]"
        + ",\n  \"violations\": [\n    " + violations + "\n  ]\n}\n";
  }

  static String svg(TortureResult result) {
    List<String> lanes = new ArrayList<>(result.acquisitionsPerWorker().keySet());
    double span = Math.max(1, result.endNanos() - result.startNanos());
    double scale = (WIDTH - LEFT - 20) / span;
    int height = LANE * (lanes.size() + 2);
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"10\">%n"
            + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", WIDTH, height));
    svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"14\" font-size=\"12\">%s</text>%n",
        escape(result.summary().lines().findFirst().orElse(""))));
    for (Torture.FaultEvent fault : result.faults()) {
      double x = LEFT + (fault.startNanos() - result.startNanos()) * scale;
      double w = Math.max(2, (fault.endNanos() - fault.startNanos()) * scale);
      int lane = fault.worker() == null ? -1 : lanes.indexOf(fault.worker());
      double y = lane < 0 ? LANE : LANE * (lane + 1);
      double h = lane < 0 ? LANE * lanes.size() : LANE;
      String color = fault.fault() == Fault.KILL ? "#000000" : "#f5a623";
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" opacity=\"0.35\"><title>%s</title></rect>%n",
          x, y, w, h, color, fault.fault().option()));
    }
    List<String> violators = result.violations().stream().flatMap(v -> v.workers().stream()).toList();
    for (int i = 0; i < lanes.size(); i++) {
      svg.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\">%s</text>%n", LANE * (i + 1) + 17, lanes.get(i)));
    }
    for (Hold hold : result.holds()) {
      int lane = lanes.indexOf(hold.worker());
      double x = LEFT + (hold.startNanos() - result.startNanos()) * scale;
      double w = Math.max(1, (hold.endNanos() - hold.startNanos()) * scale);
      boolean violating = violators.contains(hold.worker()) && isInViolation(hold, result.violations());
      String color = violating ? "#d0021b" : hold.lost() || hold.paused() ? "#9b9b9b" : "#4a90e2";
      svg.append(String.format(Locale.ROOT,
          "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>token %d %s</title></rect>%n",
          x, LANE * (lane + 1) + 4, w, LANE - 8, color, hold.token(), hold.write()));
      if (w > 24) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"white\">%d</text>%n",
            x + 2, LANE * (lane + 1) + 18, hold.token()));
      }
    }
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">blue: hold (token); grey: lost or paused holder;"
        + " red: violation; orange: pause or server fault; black: kill</text>%n", LEFT, height - 8));
    return svg.append("</svg>\n").toString();
  }

  private static boolean isInViolation(Hold hold, List<Violation> violations) {
    String token = Long.toString(hold.token());
    return violations.stream().anyMatch(v -> v.workers().contains(hold.worker()) && v.what().contains(token));
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
