package dev.baton.cli;

import dev.baton.LockClient;
import dev.baton.LockOptions;
import dev.baton.torture.LockClientFactory;

/** Connects torture workers, each in its own JVM, to the store a backend URI names. */
public final class UriClientFactory implements LockClientFactory {
  @Override
  public LockClient connect(String target) {
    return Backends.connect(target, LockOptions.defaults());
  }
}
