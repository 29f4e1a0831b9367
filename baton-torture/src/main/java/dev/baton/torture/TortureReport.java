package dev.baton.torture;

import dev.baton.internal.Redaction;
import dev.baton.torture.TortureResult.Hold;
import dev.baton.torture.TortureResult.Violation;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;

/**
 * Writes a torture's report: {@code summary.txt}, {@code result.json} and {@code timeline.png}, a picture
 * with one lane per worker, each hold a bar labelled with its token (blue held alone, green shared: a reader's or
 * a permit's; grey when the holder was told it lost the hold or was paused, red when it took part in a violation),
 * pauses and kills marked on their lane, and faults of the store as spans across every lane.
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
      ImageIO.write(timeline(result), "png", dir.resolve("timeline.png").toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the torture report to " + dir + ": " + e.getMessage(), e);
    }
  }

  static String json(TortureResult result) {
    long start = result.startNanos();
    String holds = result.holds().stream().map(hold -> String.format(Locale.ROOT,
        "{\"worker\":\"%s\",\"shared\":%b,\"token\":%d,\"askMs\":%.3f,\"startMs\":%.3f,\"endMs\":%.3f,"
            + "\"lost\":%b,\"paused\":%b,\"write\":\"%s\"}",
        hold.worker(), hold.shared(), hold.token(), millis(hold.askNanos() - start), millis(hold.startNanos() - start),
        millis(hold.endNanos() - start), hold.lost(), hold.paused(), hold.write()))
        .collect(Collectors.joining(",\n    "));
    String faults = result.faults().stream().map(fault -> String.format(Locale.ROOT,
        "{\"fault\":\"%s\",\"worker\":%s,\"startMs\":%.3f,\"endMs\":%.3f}", fault.fault().option(),
        fault.worker() == null ? "null" : "\"" + fault.worker() + "\"", millis(fault.startNanos() - start),
        millis(fault.endNanos() - start))).collect(Collectors.joining(",\n    "));
    String flags = result.flags().stream().map(flag -> "\"" + flag.replace("\"", "'") + "\"")
        .collect(Collectors.joining(", "));
    String violations = result.violations().stream().map(violation -> String.format(Locale.ROOT,
        "{\"what\":\"%s\",\"atMs\":%.3f,\"workers\":[%s]}", violation.what().replace("\"", "'"),
        millis(violation.atNanos() - start), violation.workers().stream().map(w -> "\"" + w + "\"")
            .collect(Collectors.joining(",")))).collect(Collectors.joining(",\n    "));
    return "{\n  \"passed\": " + result.passed()
        + ",\n  \"target\": \"" + Redaction.uri(result.options().target()) + "\""
        + ",\n  \"primitive\": \"" + result.options().primitive().option() + "\""
        + ",\n  \"permits\": " + result.options().permits()
        + ",\n  \"key\": \"" + result.options().key() + "\""
        + ",\n  \"workers\": " + result.options().workers()
        + ",\n  \"ttlMs\": " + result.options().ttl().toMillis()
        + ",\n  \"durationMs\": " + (long) millis(result.endNanos() - start)
        + ",\n  \"acceptedWrites\": " + result.acceptedWrites()
        + ",\n  \"rejectedWrites\": " + result.rejectedWrites()
        + ",\n  \"lostUpdates\": " + result.lostUpdates()
        + ",\n  \"tokensIncreased\": " + result.tokensIncreased()
        + ",\n  \"explainedOverlaps\": " + result.explainedOverlaps()
        + ",\n  \"mostSharedAtOnce\": " + result.mostSharedAtOnce()
        + ",\n  \"flags\": [" + flags + "]"
        + ",\n  \"longestGapAfterFaultMs\": " + result.longestGapAfterFault().toMillis()
        + ",\n  \"timeouts\": " + result.timeouts()
        + ",\n  \"errors\": " + result.errors()
        + ",\n  \"holds\": [\n    " + holds + "\n  ]"
        + ",\n  \"faults\": [\n    " + faults + "\n  ]"
        + ",\n  \"violations\": [\n    " + violations + "\n  ]\n}\n";
  }

  /** Draws the timeline: one lane per worker, holds as bars, faults as shaded spans, violations in red. */
  static BufferedImage timeline(TortureResult result) {
    List<String> lanes = new ArrayList<>(result.acquisitionsPerWorker().keySet());
    double span = Math.max(1, result.endNanos() - result.startNanos());
    double scale = (WIDTH - LEFT - 20) / span;
    int height = LANE * (lanes.size() + 3);
    BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, height);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      g.setColor(Color.BLACK);
      g.drawString(result.summary().lines().findFirst().orElse(""), 4, 14);
      for (Torture.FaultEvent fault : result.faults()) {
        int x = LEFT + (int) ((fault.startNanos() - result.startNanos()) * scale);
        int w = Math.max(3, (int) ((fault.endNanos() - fault.startNanos()) * scale));
        int lane = fault.worker() == null ? -1 : lanes.indexOf(fault.worker());
        g.setColor(fault.fault() == Fault.KILL ? Color.BLACK : new Color(245, 166, 35, 110));
        g.fillRect(x, lane < 0 ? LANE : LANE * (lane + 1), w, lane < 0 ? LANE * lanes.size() : LANE);
      }
      List<String> violators = result.violations().stream().flatMap(v -> v.workers().stream()).toList();
      for (int i = 0; i < lanes.size(); i++) {
        g.setColor(Color.BLACK);
        g.drawString(lanes.get(i), 4, LANE * (i + 1) + 17);
      }
      for (Hold hold : result.holds()) {
        int lane = lanes.indexOf(hold.worker());
        int x = LEFT + (int) ((hold.startNanos() - result.startNanos()) * scale);
        int w = Math.max(1, (int) ((hold.endNanos() - hold.startNanos()) * scale));
        boolean violating = violators.contains(hold.worker()) && isInViolation(hold, result.violations());
        g.setColor(violating ? new Color(208, 2, 27) : hold.lost() || hold.paused() ? new Color(155, 155, 155)
            : hold.shared() ? new Color(80, 170, 110) : new Color(74, 144, 226));
        g.fillRect(x, LANE * (lane + 1) + 4, w, LANE - 8);
        String token = Long.toString(hold.token());
        if (w > g.getFontMetrics().stringWidth(token) + 4) {
          g.setColor(Color.WHITE);
          g.drawString(token, x + 2, LANE * (lane + 1) + 18);
        }
      }
      g.setColor(Color.BLACK);
      g.drawString("blue: hold alone (token); green: shared; grey: lost or paused holder; red: violation;"
          + " orange: pause or server fault; black: kill. " + Duration.ofNanos(result.endNanos() - result.startNanos()).toSeconds() + " s across.",
          LEFT, height - 10);
    } finally {
      g.dispose();
    }
    return image;
  }

  private static boolean isInViolation(Hold hold, List<Violation> violations) {
    String token = Long.toString(hold.token());
    return violations.stream().anyMatch(v -> v.workers().contains(hold.worker()) && v.what().contains(token));
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

}
