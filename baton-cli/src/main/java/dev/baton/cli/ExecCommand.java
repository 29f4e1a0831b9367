package dev.baton.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code baton exec}: not written yet. */
@Command(name = "exec", description = "Not written yet.")
final class ExecCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("baton exec is not written yet");
  }
}
