package dev.baton.bench.suite;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;

/**
 * The second JVM of a run, started by {@link WorkerProcess} with the suite's class path and the servers'
 * endpoints as arguments. It reads one command a line on standard input and answers one line on standard output:
 *
 * <ul>
 *   <li>{@code OPEN IMPLEMENTATION HOLD THREADS KEY}: opens a client, answers {@code OPENED};
 *   <li>{@code RUN MILLIS}: its threads take and give back that {@link Hold} of the key that long, answers
 *       {@code RAN CYCLES NANOS};
 *   <li>{@code CLOSE}: closes the client, answers {@code CLOSED};
 *   <li>{@code HEAP IMPLEMENTATION LEASES WAITERS}: measures with {@link HeapProbe}, answers
 *       {@code HEAP PER-LEASE PER-WAITER PER-PARKED-THREAD NOTE}.
 * </ul>
 *
 * <p>It exits at the end of its input; a failure answers {@code ERROR MESSAGE} and exits 1.
 */
public final class Worker {
  private Worker() {}

  /** Serves commands until standard input ends. */
  public static void main(String[] args) throws Exception {
    Endpoints endpoints = Endpoints.fromArgs(args);
    PrintStream out = System.out;
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Contender contender = null;
    Hold hold = null;
    int threads = 0;
    String key = null;
    try {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] words = line.split(" ");
        switch (words[0]) {
          case "OPEN" -> {
            contender = Implementation.valueOf(words[1]).open(endpoints);
            hold = Hold.valueOf(words[2]);
            threads = Integer.parseInt(words[3]);
            key = words[4];
            out.println("OPENED");
          }
          case "RUN" -> {
            Load.Result result = Load.run(contender, hold, Collections.nCopies(threads, key),
                Duration.ofMillis(Long.parseLong(words[1])));
            out.println("RAN " + result.cycles() + " " + result.elapsedNanos());
          }
          case "CLOSE" -> {
            contender.close();
            contender = null;
            out.println("CLOSED");
          }
          case "HEAP" -> {
            HeapProbe.Heap heap = HeapProbe.measure(Implementation.valueOf(words[1]), endpoints,
                Integer.parseInt(words[2]), Integer.parseInt(words[3]));
            out.println(heap);
          }
          default -> throw new IllegalArgumentException("Unknown command: " + line);
        }
        out.flush();
      }
    } catch (Exception e) {
      e.printStackTrace();
      out.println("ERROR " + e);
      out.flush();
      System.exit(1);
    }
    System.exit(0);
  }
}
