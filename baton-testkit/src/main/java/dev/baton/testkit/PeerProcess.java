package dev.baton.testkit;

import dev.baton.servers.Processes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Another library's lock client in a process of its own, as the interop tests run it (Curator, Redisson): one command
 * a line on its standard input, one answer a line on its standard output. Lines that are no answer (its log, a stack
 * trace) are kept to quote when an answer does not come. Killed when closed, and at JVM exit if a test forgot it.
 */
public final class PeerProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Thread exitHook;
  private final PrintStream commands;
  private final Set<String> answerWords;
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private final List<String> log = new CopyOnWriteArrayList<>();

  private PeerProcess(String name, Process process, Set<String> answerWords) {
    this.name = name;
    this.process = process;
    this.exitHook = Processes.killOnExit(process, name + "-" + process.pid());
    this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.answerWords = Set.copyOf(answerWords);
    Thread reader = new Thread(this::readAnswers, name + "-peer-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code command} and waits up to {@code readyWithin} for its first answer, {@code READY}.
   *
   * @param name how messages name the peer: {@code Curator}, {@code Redisson}
   * @param answers the lines that are answers; {@code READY} is one whether listed or not
   * @throws AssertionError if it answered otherwise or not in time; it is killed then
   */
  public static PeerProcess start(String name, List<String> command, Set<String> answers, Duration readyWithin)
      throws IOException, InterruptedException {
    Set<String> words = new HashSet<>(answers);
    words.add("READY");
    PeerProcess peer = new PeerProcess(name, new ProcessBuilder(command).redirectErrorStream(true).start(), words);
    try {
      peer.await("READY", readyWithin);
    } catch (AssertionError | InterruptedException e) {
      peer.close();
      throw e;
    }
    return peer;
  }

  /** Sends one command line. */
  public void send(String command) {
    commands.println(command);
  }

  /** The peer's next answer within {@code timeout}, or null. */
  public String next(Duration timeout) throws InterruptedException {
    return answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Waits for the peer's next answer to be {@code answer}; fails quoting the rest of its output if it is not. */
  public void await(String answer, Duration timeout) throws InterruptedException {
    String next = next(timeout);
    if (!answer.equals(next)) {
      throw new AssertionError(name + " answered " + next + " within " + timeout + " where " + answer
          + " was expected; its output besides: " + log);
    }
  }

  private void readAnswers() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        (answerWords.contains(line) ? answers : log).add(line);
      }
    } catch (IOException e) {
      log.add("output ended: " + e);
    }
  }

  /** Kills the peer: it releases nothing. */
  @Override
  public void close() {
    process.destroyForcibly();
    Processes.forgetOnExit(exitHook);
  }
}
