package dev.baton.servers;

/** Redis answered a command sent by {@link RedisServer#command} with an error, such as {@code ERR unknown command}. */
public final class RedisErrorReply extends RuntimeException {
  private static final long serialVersionUID = 1L;

  RedisErrorReply(String error) {
    super(error);
  }
}
