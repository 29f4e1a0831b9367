package dev.baton.bench.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Writes {@code benchmarks.md} and its charts (under {@code benchmarks/} beside it) from one run's results. */
final class Report {
  private static final String CHARTS = "benchmarks";
  private static final String ROUNDS = ", median of the rounds (whiskers: min-max)";

  private final Results results;
  private final StringBuilder page = new StringBuilder();

  private Report(Results results) {
    this.results = results;
  }

  /** Writes the page {@code docsDir/benchmarks.md}, the charts, and the notes of {@code notes} if that file exists. */
  static void write(Results results, Path docsDir, Path notes) throws IOException {
    Files.createDirectories(docsDir.resolve(CHARTS));
    Report report = new Report(results);
    report.header();
    report.targets();
    report.timed(docsDir, Scenario.UNCONTENDED, "cycles/s", true);
    report.timed(docsDir, Scenario.SPREAD, "cycles/s", true);
    report.timed(docsDir, Scenario.HOT_KEY, "acquisitions/s", false);
    report.timed(docsDir, Scenario.ACROSS_PROCESSES, "acquisitions/s", false);
    report.rawLimits(docsDir);
    report.heap(docsDir);
    if (Files.exists(notes)) {
      report.page.append(Files.readString(notes, StandardCharsets.UTF_8).strip()).append("\n");
    }
    Files.writeString(docsDir.resolve("benchmarks.md"), report.page, StandardCharsets.UTF_8);
  }

  private void header() {
    Results.Environment env = results.environment();
    Settings settings = env.settings();
    line("# Benchmarks");
    line("");
    line("Baton against Redisson, Curator, jetcd's `Lock` and each store's raw limit: every implementation on the "
        + "same servers in the same run. Written by `" + env.command() + "` on " + env.date() + " (the run took "
        + env.seconds() / 60 + " min " + env.seconds() % 60 + " s).");
    line("");
    line("- Machine: " + env.machine() + "; " + env.jdk() + ".");
    line("- Servers, started by the test kit on loopback: " + String.join(", ", env.servers()) + ".");
    line("- Libraries: " + String.join(", ", env.libraries()) + ".");
    line(String.format(Locale.ROOT, "- Method: one JVM runs every implementation, each with a fresh client: "
        + "a %s s warm-up, then %d timed rounds of %s s. In scenarios 1 to 3 the implementations of a store are open "
        + "together and take turns round by round, the order rotating each round, so that none is always measured "
        + "first; across processes they run one after the other. A rate is the median of the rounds (their min-max beside "
        + "it); the percentiles are of every cycle of the rounds. A thread locks, unlocks at once and starts again. "
        + "Ratios divide medians. The second JVM of the cross-process scenario and of the heap scenario has the "
        + "same class path.", Targets.factor(settings.warmup().toMillis() / 1000.0), settings.rounds(),
        Targets.factor(settings.round().toMillis() / 1000.0)));
    line("- jetcd's `Lock` is keyed by a lease, and two threads sharing a lease both \"acquire\" it: each thread "
        + "grants its own lease (one hour, no keep-alive needed within the run).");
    line("");
  }

  private void targets() {
    line("## Targets");
    line("");
    line("| target | measured | |");
    line("|---|---|---|");
    for (Targets.Target target : Targets.check(results)) {
      line("| " + target.asked() + " | " + target.measured() + " | " + (target.met() ? "met" : "**missed**") + " |");
    }
    line("");
  }

  private void timed(Path docsDir, Scenario scenario, String unit, boolean againstRaw) throws IOException {
    line("## " + (scenario.ordinal() + 1) + ". " + capitalized(scenario.title()));
    line("");
    boolean across = scenario == Scenario.ACROSS_PROCESSES;
    line("| store | implementation | " + unit + " | rounds min-max | p50 cycle (µs) | p99 "
        + (againstRaw ? "cycle" : "wait") + " (µs) |" + (across ? " worker JVM's share |" : "")
        + (againstRaw ? " x raw |" : "") + " x peer |");
    line("|---|---|---:|---:|---:|---:|" + (across ? "---:|" : "") + (againstRaw ? "---:|" : "") + "---:|");
    List<Chart.Bar> bars = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (Row row : results.rows().getOrDefault(scenario, List.of())) {
      Implementation implementation = row.implementation();
      Store store = implementation.store();
      StringBuilder cells = new StringBuilder("| " + store.label() + " | " + implementation.label() + " | "
          + Chart.number(row.rate()) + " | " + Chart.number(row.minRate()) + "-" + Chart.number(row.maxRate())
          + " | " + Chart.number(row.p50CycleMicros()) + " | "
          + Chart.number(againstRaw ? row.p99CycleMicros() : row.p99WaitMicros()) + " |");
      if (across) {
        cells.append(' ').append(Targets.percent(row.workerShare())).append(" |");
      }
      if (againstRaw) {
        cells.append(' ').append(ratio(scenario, implementation, Results.raw(store))).append(" |");
      }
      cells.append(' ').append(implementation.role() == Implementation.Role.BATON
          ? ratio(scenario, implementation, Results.peer(store)) : "").append(" |");
      line(cells.toString());
      bars.add(new Chart.Bar(store.label() + ": " + implementation.label(), row.rate(), row.minRate(),
          row.maxRate(), implementation.role()));
      if (row.failure() != null) {
        notes.add(store.label() + ", " + implementation.label() + ": failed, " + row.failure());
      }
    }
    notes(notes);
    chart(docsDir, scenario.id(), (scenario.ordinal() + 1) + ". " + scenario.title(), unit + ROUNDS, bars);
  }

  private void rawLimits(Path docsDir) throws IOException {
    line("## 5. The raw limit of each store");
    line("");
    line("Not a lock: the least a lock cycle costs at the store, two round trips with the store's own client, "
        + "measured the same way as the locks above (its rows there).");
    line("");
    line("| store | a cycle | 1 thread, cycles/s | p50 cycle (µs) | 8 threads on 8 keys, cycles/s |");
    line("|---|---|---:|---:|---:|");
    List<Chart.Bar> bars = new ArrayList<>();
    for (Store store : Store.values()) {
      Implementation raw = Results.raw(store);
      Optional<Row> one = results.row(Scenario.UNCONTENDED, raw);
      Optional<Row> eight = results.row(Scenario.SPREAD, raw);
      line("| " + store.label() + " | " + raw.label().substring("raw: ".length()) + " | "
          + Chart.number(one.map(Row::rate).orElse(Double.NaN)) + " | "
          + Chart.number(one.map(Row::p50CycleMicros).orElse(Double.NaN)) + " | "
          + Chart.number(eight.map(Row::rate).orElse(Double.NaN)) + " |");
      bars.add(bar(store.label() + ", 1 thread", one, raw));
      bars.add(bar(store.label() + ", 8 threads", eight, raw));
    }
    line("");
    chart(docsDir, "raw-limit", "5. The raw limit of each store", "cycles/s" + ROUNDS, bars);
  }

  private void heap(Path docsDir) throws IOException {
    Settings settings = results.environment().settings();
    line("## 6. Memory");
    line("");
    line(String.format(Locale.ROOT, "In a JVM of its own (no server in it; `-XX:+UseSerialGC`), eight threads take "
        + "%,d locks on as many keys, a share each, and keep them; then %,d threads each wait for one of those keys "
        + "through a second client, as if another process held them. "
        + "The heap is the used heap after `System.gc()` (two passes) before and after, divided by the count. The "
        + "keys exist before the first measurement. A waiting thread's cost is over that of a thread parked on a "
        + "latch, measured the same way just before (the parked thread's own cost is in the last column).",
        settings.heldLeases(), settings.waiters()));
    line("");
    line("| store | implementation | heap per held lease (B) | heap per waiting thread (B) | parked thread (B) |");
    line("|---|---|---:|---:|---:|");
    List<Chart.Bar> bars = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (Implementation implementation : Scenario.heapImplementations()) {
      Optional<HeapProbe.Heap> heap = results.heap(implementation);
      double perLease = heap.map(HeapProbe.Heap::perLease).orElse(Double.NaN);
      line("| " + implementation.store().label() + " | " + implementation.label() + " | " + Chart.number(perLease)
          + " | " + Chart.number(heap.map(HeapProbe.Heap::perWaiter).orElse(Double.NaN)) + " | "
          + Chart.number(heap.map(HeapProbe.Heap::perParkedThread).orElse(Double.NaN)) + " |");
      bars.add(new Chart.Bar(implementation.store().label() + ": " + implementation.label(), perLease, Double.NaN,
          Double.NaN, implementation.role()));
      heap.map(HeapProbe.Heap::note).filter(note -> !note.isEmpty())
          .ifPresent(note -> notes.add(implementation.store().label() + ", " + implementation.label() + ": " + note));
    }
    notes(notes);
    chart(docsDir, "heap", "6. Heap per held lease", "bytes", bars);
  }

  private static Chart.Bar bar(String label, Optional<Row> row, Implementation implementation) {
    return new Chart.Bar(label, row.map(Row::rate).orElse(Double.NaN), row.map(Row::minRate).orElse(Double.NaN),
        row.map(Row::maxRate).orElse(Double.NaN), implementation.role());
  }

  /** Ends a table, with what went wrong below it. */
  private void notes(List<String> notes) {
    line("");
    for (String note : notes) {
      line("- " + note.replace('\n', ' ').replace("|", "\\|"));
    }
    if (!notes.isEmpty()) {
      line("");
    }
  }

  private String ratio(Scenario scenario, Implementation implementation, Implementation base) {
    if (implementation == base) {
      return "";
    }
    double ratio = results.ratio(scenario, implementation, base);
    return Double.isFinite(ratio) ? Targets.factor(ratio) + "x" : "";
  }

  private void chart(Path docsDir, String id, String title, String unit, List<Chart.Bar> bars) throws IOException {
    Chart.write(title, unit, bars, docsDir.resolve(CHARTS).resolve(id + ".png"));
    line("![" + title + "](" + CHARTS + "/" + id + ".png)");
    line("");
  }

  private void line(String text) {
    page.append(text).append('\n');
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
