package dev.baton.spi;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;

/**
 * How a backend module turns its {@link LockBackend} into the {@link LockClient} applications use: the engine
 * around it adds reentrancy, the per-process queue, timeouts, the watchdog and lost-lock reporting.
 *
 * <pre>{@code
 * public static LockClient connect(String uri) {
 *   return ClientFactory.newClient(MyBackend.connect(uri), LockOptions.defaults());
 * }
 * }</pre>
 */
public final class ClientFactory {
  /**
   * The engine's one entry point. Its classes are package-private so that no code outside {@code baton-core}
   * can reach them, on the class path as on the module path; this class, in the same module, finds the
   * constructor with a private lookup once.
   */
  private static final MethodHandle NEW_ENGINE_CLIENT = engineClientConstructor();

  private ClientFactory() {}

  /**
   * A client of the store {@code backend} talks to.
   *
   * @param backend the store's protocol; the client owns it and closes it when it is closed
   * @param defaults the options of handles from {@link LockClient#lock(String)}
   */
  public static LockClient newClient(LockBackend backend, LockOptions defaults) {
    return make(backend, defaults, null);
  }

  /**
   * A client of the store {@code backend} talks to, whose engine reads, waits and schedules by {@code ticker}: for
   * test kits that move time themselves.
   *
   * @param backend the store's protocol; the client owns it and closes it when it is closed
   * @param defaults the options of handles from {@link LockClient#lock(String)}
   * @param ticker the engine's time
   */
  public static LockClient newClient(LockBackend backend, LockOptions defaults, Ticker ticker) {
    return make(backend, defaults, Objects.requireNonNull(ticker, "ticker"));
  }

  private static LockClient make(LockBackend backend, LockOptions defaults, Ticker ticker) {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(defaults, "defaults");
    try {
      return (LockClient) NEW_ENGINE_CLIENT.invoke(backend, defaults, ticker);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("The engine could not make a client of " + backend.name(), e);
    }
  }

  private static MethodHandle engineClientConstructor() {
    try {
      Class<?> type = Class.forName("dev.baton.engine.EngineClient");
      return MethodHandles.privateLookupIn(type, MethodHandles.lookup())
          .findConstructor(type, MethodType.methodType(void.class, LockBackend.class, LockOptions.class, Ticker.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
