package dev.baton.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Addresses split into the driver's URL and the credentials, and malformed ones refused without their password. */
class AddressFormatTest {
  private static final AddressFormat FORMAT = new AddressFormat("Test", List.of("jdbc:test://", "test://"),
      "jdbc:test://", true, "test://user:password@127.0.0.1:1/db", "test://user:password@host:1/db");

  @Test
  void theUserInfoLeavesTheUrlAndTheParametersStay() {
    JdbcAddress address = FORMAT.parse("  TEST://app:s%40cret+1@db.internal:5432/app?ssl=true ");

    assertThat(address.jdbcUrl()).isEqualTo("jdbc:test://db.internal:5432/app?ssl=true");
    assertThat(address.user()).isEqualTo("app");
    assertThat(address.password()).isEqualTo("s@cret+1");
    assertThat(address.display()).isEqualTo("jdbc:test://db.internal:5432/app");
  }

  @Test
  void anAtSignInThePasswordIsPartOfIt() {
    JdbcAddress address = FORMAT.parse("test://app:p@ss@db:1/app");

    assertThat(address.user()).isEqualTo("app");
    assertThat(address.password()).isEqualTo("p@ss");
    assertThat(address.jdbcUrl()).isEqualTo("jdbc:test://db:1/app");
  }

  @Test
  void credentialsGivenApartWinOverTheAddresses() {
    JdbcAddress address = FORMAT.parse("test://app:secret@db:1/app");

    assertThat(address.login(null, null)).containsEntry("user", "app").containsEntry("password", "secret");
    assertThat(address.login("other", "pw")).containsEntry("user", "other").containsEntry("password", "pw");
    assertThat(FORMAT.parse("jdbc:test://db:1/app").login(null, null)).isEmpty();
  }

  @Test
  void malformedAddressesAreRefusedWithoutTheirPassword() {
    for (String address : List.of("other://u:hunter2@db:1/x", "test://u:hunter2@db:1", "test://u:hunter2@/x")) {
      assertThatThrownBy(() -> FORMAT.parse(address))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("The Test address '")
          .hasMessageEndingWith("is malformed; use test://user:password@host:1/db.")
          .hasMessageNotContaining("hunter2");
    }
    assertThatThrownBy(() -> FORMAT.parse(" "))
        .hasMessage("The Test address must not be blank; use e.g. test://user:password@127.0.0.1:1/db.");
  }

  @Test
  void theDatabaseIsOptionalWhereTheFormatSaysSo() {
    AddressFormat optional = new AddressFormat("Test", List.of("test://"), "jdbc:test://", false, "e", "u");

    assertThat(optional.parse("test://db:1").jdbcUrl()).isEqualTo("jdbc:test://db:1");
  }
}
