package dev.baton.cli;

import java.io.Console;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Whether baton talks to a person at a terminal, or writes to a pipe, a file or a CI log. On JDK 17 to 21
 * {@link System#console()} is there only when standard input and output are both terminals; from JDK 22 on
 * it is there even when they are redirected, and its {@code isTerminal()} (looked up by reflection, since
 * JDK 17 has no such method) tells.
 */
final class Terminal {
  private Terminal() {}

  /** Whether standard output (and input) is a terminal. */
  static boolean isInteractive() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    Method isTerminal;
    try {
      isTerminal = Console.class.getMethod("isTerminal");
    } catch (NoSuchMethodException beforeJdk22) {
      return true;
    }
    try {
      return (Boolean) isTerminal.invoke(console);
    } catch (IllegalAccessException | InvocationTargetException e) {
      return false;
    }
  }
}
