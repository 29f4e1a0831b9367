package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Printable} writes what the store holds so that nothing in it acts on the terminal or breaks a line. */
class PrintableTest {
  private static final String HOSTILE = "a\nb\u001b[31mc\td\re\u0007\u009b\u202eg\u007f\\h";

  @Test
  void aValueHasEveryControlCharacterEscapedAndItsBackslashesDoubled() {
    assertThat(Printable.value(HOSTILE)).isEqualTo("a\\nb\\u001b[31mc\\td\\re\\u0007\\u009b\\u202eg\\u007f\\\\h");
    assertThat(Printable.value("orders/42 é 名")).isEqualTo("orders/42 é 名");
  }

  @Test
  void aLineKeepsItsTabsAndBackslashes() {
    assertThat(Printable.line("\tat x\\y \u001b[2J")).isEqualTo("\tat x\\y \\u001b[2J");
  }

  @Test
  void jsonEscapesWhatJsonMustAndWhatATerminalWouldObey() {
    assertThat(Printable.json(HOSTILE))
        .isEqualTo("\"a\\u000ab\\u001b[31mc\\u0009d\\u000de\\u0007\\u009b\\u202eg\\u007f\\\\h\"");
    assertThat(Printable.json("say \"hi\"")).isEqualTo("\"say \\\"hi\\\"\"");
  }
}
