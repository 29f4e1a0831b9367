package dev.baton.bench.suite;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A plain horizontal bar chart as a PNG, drawn with java.awt in headless mode: one bar per implementation, coloured
 * by its role, with a whisker from the lowest to the highest round.
 */
final class Chart {
  private static final int WIDTH = 960;
  private static final int LABELS = 330;
  private static final int BARS = 500;
  private static final int ROW = 26;
  private static final int TOP = 64;
  private static final Color BATON = new Color(0x1f77b4);
  private static final Color PEER = new Color(0xff7f0e);
  private static final Color RAW = new Color(0x8c8c8c);

  private Chart() {}

  /**
   * One bar: its label, its value, the range of the rounds (drawn as a whisker; NaN for none) and the role of its
   * implementation (which sets the colour).
   */
  record Bar(String label, double value, double low, double high, Implementation.Role role) {}

  static void write(String title, String unit, List<Bar> bars, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int height = TOP + bars.size() * ROW + 20;
    BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, height);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, 12, 24);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    legend(g, unit);
    double max = bars.stream()
        .mapToDouble(bar -> Double.isFinite(bar.high()) ? Math.max(bar.high(), bar.value()) : bar.value())
        .filter(Double::isFinite)
        .max()
        .orElse(1);
    for (int i = 0; i < bars.size(); i++) {
      draw(g, bars.get(i), TOP + i * ROW, max);
    }
    g.setColor(Color.GRAY);
    g.drawLine(LABELS, TOP, LABELS, TOP + bars.size() * ROW);
    g.dispose();
    ImageIO.write(image, "png", file.toFile());
  }

  /** A bar at height {@code y}, scaled so that {@code max} fills the width, with its whisker and its value. */
  private static void draw(Graphics2D g, Bar bar, int y, double max) {
    g.setColor(Color.BLACK);
    g.drawString(bar.label(), 12, y + 17);
    int length = Double.isFinite(bar.value()) ? (int) Math.round(bar.value() / max * BARS) : 0;
    g.setColor(colour(bar.role()));
    g.fillRect(LABELS, y + 4, Math.max(length, 1), ROW - 8);
    int end = length;
    if (Double.isFinite(bar.low()) && Double.isFinite(bar.high())) {
      int low = (int) Math.round(bar.low() / max * BARS);
      end = Math.max(length, (int) Math.round(bar.high() / max * BARS));
      g.setColor(Color.DARK_GRAY);
      g.drawLine(LABELS + low, y + ROW / 2, LABELS + end, y + ROW / 2);
      g.drawLine(LABELS + low, y + 8, LABELS + low, y + ROW - 8);
      g.drawLine(LABELS + end, y + 8, LABELS + end, y + ROW - 8);
    }
    g.setColor(Color.BLACK);
    g.drawString(number(bar.value()), LABELS + end + 6, y + 17);
  }

  private static void legend(Graphics2D g, String unit) {
    int x = 12;
    for (Implementation.Role role : Implementation.Role.values()) {
      g.setColor(colour(role));
      g.fillRect(x, 36, 12, 12);
      g.setColor(Color.BLACK);
      String name = role.name().toLowerCase(Locale.ROOT);
      g.drawString(name, x + 16, 47);
      x += 24 + g.getFontMetrics().stringWidth(name);
    }
    g.drawString(unit, x + 24, 47);
  }

  private static Color colour(Implementation.Role role) {
    return switch (role) {
      case BATON -> BATON;
      case PEER -> PEER;
      case RAW -> RAW;
    };
  }

  /** A value for a label: grouped thousands, no decimals past 100. */
  static String number(double value) {
    if (!Double.isFinite(value)) {
      return "n/a";
    }
    return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.2f", value);
  }
}
