package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockOptions;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;

/** {@link Locked} annotations are read once, and a bad one fails when its bean is created, naming what to fix. */
class LockedMethodTest {
  private final LockedMethods methods = new LockedMethods(value -> value.replace("${orders.wait}", "250ms"));

  @Test
  void readsTheKeyAndTheDurations() throws Exception {
    LockedMethod method = methods.get(Good.class.getMethod("ship", long.class, String.class), Good.class);
    assertThat(method.key(new Object[] {42L, "eu"}, null)).isEqualTo("order:42:eu");
    LockOptions options = method.options(LockOptions.defaults());
    assertThat(options.waitTime()).contains(Duration.ofMillis(250));
    assertThat(options.holdTimeout()).contains(Duration.ofSeconds(30));
    assertThat(method.isAsync()).isFalse();
    assertThat(method.holdAtLeast()).isEqualTo(Duration.ofSeconds(1));
    assertThat(methods.get(Good.class.getMethod("later", long.class), Good.class).isAsync()).isTrue();
    assertThat(methods.inspect(Good.class)).isTrue();
    assertThat(methods.inspect(String.class)).isFalse();
  }

  @Test
  void leavesUnsetDurationsToTheClientsDefaults() throws Exception {
    LockOptions defaults = LockOptions.builder().waitTime(Duration.ofSeconds(3)).build();
    LockedMethod method = methods.get(Good.class.getMethod("later", long.class), Good.class);
    assertThat(method.options(defaults)).isEqualTo(defaults);
    assertThat(method.holdAtLeast()).isZero();
  }

  @Test
  void aKeyThatComesOutNullNamesTheExpressionAndTheArguments() throws Exception {
    LockedMethod method = methods.get(Good.class.getMethod("byName", String.class), Good.class);
    assertThatThrownBy(() -> method.key(new Object[] {null}, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("#name").hasMessageContaining("Good.byName(String)").hasMessageContaining("[null]");
  }

  @Test
  void aVariableThatIsNoParameterFailsAtOnce() {
    assertThatThrownBy(() -> methods.inspect(UnknownVariable.class)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("#orderID").hasMessageContaining("its parameters: orderId").hasMessageContaining("#p0");
  }

  @Test
  void badAnnotationsFailNamingTheMethodAndTheFix() {
    assertThatThrownBy(() -> methods.inspect(BlankKey.class)).hasMessageContaining("blank key")
        .hasMessageContaining("BlankKey.run()");
    assertThatThrownBy(() -> methods.inspect(Unparsable.class)).hasMessageContaining("is not a SpEL expression");
    assertThatThrownBy(() -> methods.inspect(BadDuration.class)).hasMessageContaining("waitTime = \"5 seconds\"")
        .hasMessageContaining("5s");
    assertThatThrownBy(() -> methods.inspect(NegativeDuration.class)).hasMessageContaining("negative");
    assertThatThrownBy(() -> methods.inspect(ZeroLease.class)).hasMessageContaining("holdTimeout must be at least 1 ms");
    assertThatThrownBy(() -> methods.inspect(MissingFallback.class)).hasMessageContaining("fallback = \"later\"")
        .hasMessageContaining("later(long) returning String");
    assertThatThrownBy(() -> methods.inspect(FinalMethod.class)).hasMessageContaining("cannot intercept");
  }

  @Test
  void aScheduledMethodSkipsByDefaultAndAnyOtherThrows() throws Exception {
    assertThat(whenTaken(Jobs.class, "scheduled")).isEqualTo(WhenTaken.SKIP);
    assertThat(whenTaken(Jobs.class, "scheduledTwice")).isEqualTo(WhenTaken.SKIP);
    assertThat(whenTaken(Jobs.class, "scheduledThroughAMetaAnnotation")).isEqualTo(WhenTaken.SKIP);
    assertThat(whenTaken(Jobs.class, "called")).isEqualTo(WhenTaken.THROW);
    assertThat(whenTaken(Jobs.class, "scheduledButThrows")).isEqualTo(WhenTaken.THROW);
    assertThat(whenTaken(Jobs.class, "scheduledWithAFallback")).isEqualTo(WhenTaken.FALLBACK);
  }

  @Test
  void aSkippedCallReturnsWhatTheReturnTypeTakesForNothing() throws Exception {
    assertThat(skipped("count")).isEqualTo(0);
    assertThat(skipped("done")).isEqualTo(false);
    assertThat(skipped("size")).isEqualTo(0L);
    assertThat(skipped("name")).isNull();
    assertThat(skipped("found")).isEqualTo(Optional.empty());
    assertThat(skipped("scheduled")).isNull();
    CompletionStage<?> stage = (CompletionStage<?>) skipped("later");
    assertThat(stage.toCompletableFuture()).isCompletedWithValue(null);
    assertThat(skipped("later")).as("a stage per call").isNotSameAs(stage);
  }

  @Test
  void whenTakenThatContradictsTheFallbackFailsNamingTheMethod() {
    assertThatThrownBy(() -> methods.inspect(FallbackWithoutMethod.class)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whenTaken = FALLBACK").hasMessageContaining("FallbackWithoutMethod.run()")
        .hasMessageContaining("fallback = \"methodName\"");
    assertThatThrownBy(() -> methods.inspect(SkipWithFallback.class)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whenTaken = SKIP, fallback = \"later\"").hasMessageContaining("SkipWithFallback.run()");
  }

  private WhenTaken whenTaken(Class<?> type, String name) throws Exception {
    return methods.get(type.getMethod(name), type).whenTaken();
  }

  private Object skipped(String name) throws Exception {
    return methods.get(Skips.class.getMethod(name), Skips.class).skipped();
  }

  /** A scheduling annotation of the application's own, as {@code @Scheduled} on it. */
  @Retention(RetentionPolicy.RUNTIME)
  @Scheduled(fixedDelay = 60_000)
  @interface EveryMinute {}

  /** Methods that are scheduled or not. */
  static class Jobs {
    @Scheduled(fixedDelay = 1000)
    @Locked(key = "'a'")
    public void scheduled() {
    }

    @Schedules({@Scheduled(fixedDelay = 1000), @Scheduled(cron = "0 0 * * * *")})
    @Locked(key = "'b'")
    public void scheduledTwice() {
    }

    @EveryMinute
    @Locked(key = "'c'")
    public void scheduledThroughAMetaAnnotation() {
    }

    @Locked(key = "'d'")
    public void called() {
    }

    @Scheduled(fixedDelay = 1000)
    @Locked(key = "'e'", whenTaken = WhenTaken.THROW)
    public void scheduledButThrows() {
    }

    @Scheduled(fixedDelay = 1000)
    @Locked(key = "'f'", fallback = "instead")
    public void scheduledWithAFallback() {
    }

    public void instead() {
    }
  }

  /** Skipping methods of each return type. */
  static class Skips {
    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP)
    public int count() {
      return 1;
    }

    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP)
    public boolean done() {
      return true;
    }

    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP)
    public long size() {
      return 1;
    }

    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP)
    public String name() {
      return "ran";
    }

    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP)
    public Optional<String> found() {
      return Optional.of("ran");
    }

    @Scheduled(fixedDelay = 1000)
    @Locked(key = "'k'")
    public void scheduled() {
    }

    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP)
    public CompletableFuture<String> later() {
      return CompletableFuture.completedFuture("ran");
    }
  }

  static class FallbackWithoutMethod {
    @Locked(key = "'k'", whenTaken = WhenTaken.FALLBACK)
    public void run() {
    }
  }

  static class SkipWithFallback {
    @Locked(key = "'k'", whenTaken = WhenTaken.SKIP, fallback = "later")
    public void run() {
    }

    public void later() {
    }
  }

  /** Valid annotations. */
  static class Good {
    @Locked(key = "'order:' + #orderId + ':' + #p1", waitTime = "${orders.wait}", holdTimeout = "PT30S", holdAtLeast = "1s")
    public String ship(long orderId, String region) {
      return "shipped";
    }

    @Locked(key = "'invoice:' + #a0")
    public CompletableFuture<String> later(long invoiceId) {
      return CompletableFuture.completedFuture("later");
    }

    @Locked(key = "#name")
    public void byName(String name) {
    }
  }

  static class UnknownVariable {
    @Locked(key = "'order:' + #orderID")
    public void run(long orderId) {
    }
  }

  static class BlankKey {
    @Locked(key = " ")
    public void run() {
    }
  }

  static class Unparsable {
    @Locked(key = "'order:' + ")
    public void run() {
    }
  }

  static class BadDuration {
    @Locked(key = "'k'", waitTime = "5 seconds")
    public void run() {
    }
  }

  static class NegativeDuration {
    @Locked(key = "'k'", waitTime = "-1s")
    public void run() {
    }
  }

  static class ZeroLease {
    @Locked(key = "'k'", holdTimeout = "0s")
    public void run() {
    }
  }

  static class MissingFallback {
    @Locked(key = "'k'", fallback = "later")
    public String run(long id) {
      return "ran";
    }

    public void later(long id) {
    }
  }

  static class FinalMethod {
    @Locked(key = "'k'")
    public final void run() {
    }
  }
}
