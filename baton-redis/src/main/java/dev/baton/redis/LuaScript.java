package dev.baton.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A Lua script from this package's resources, run with {@code EVALSHA} (one round trip, the script's
 * digest computed here) and with {@code EVAL} of the source when the server answers {@code NOSCRIPT}
 * (after a restart or a {@code SCRIPT FLUSH}); that {@code EVAL} caches it again. The digest is computed
 * when the script first runs, not as the backends' classes initialize: a short-lived client such as
 * {@code baton exec} runs two or three of the scripts and would otherwise pay SHA-1 for all twelve.
 */
final class LuaScript {
  /** The line of a script made by {@link #loadAround} that stands for another script's text. */
  static final String BODY = "--@BODY@--";

  private final String name;
  private final String source;
  /** The source's SHA-1 in hex once computed; a race computes it twice, to the same immutable string. */
  private String sha;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source;
  }

  static LuaScript load(String name) {
    try (InputStream in = LuaScript.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The Lua script " + name + " is missing from the baton-redis jar.");
      }
      return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the Lua script " + name, e);
    }
  }

  /**
   * The script {@code name}, in which the line {@value #BODY} stands for the text of {@code body}: one script that runs
   * another's steps as a function of its own, so that the steps have one text.
   */
  static LuaScript loadAround(String name, LuaScript body) {
    LuaScript outer = load(name);
    String line = "\n" + BODY + "\n";
    int at = outer.source.indexOf(line);
    if (at < 0 || outer.source.indexOf(line, at + 1) >= 0) {
      throw new IllegalStateException("The Lua script " + name + " in the baton-redis jar needs one line " + BODY
          + " where " + body.name + " belongs.");
    }
    return new LuaScript(name,
        outer.source.substring(0, at + 1) + body.source + outer.source.substring(at + line.length() - 1));
  }

  <T> T run(AwaitedCommands redis, ScriptOutputType type, String[] keys, String... args) {
    try {
      return redis.await(redis.async().<T>evalsha(sha(), type, keys, args));
    } catch (RedisNoScriptException e) {
      return redis.await(redis.async().<T>eval(source, type, keys, args));
    }
  }

  <T> CompletionStage<T> runAsync(RedisScriptingAsyncCommands<String, String> redis, ScriptOutputType type, String[] keys,
      String... args) {
    return runAsync(redis, type, () -> { }, keys, args);
  }

  /**
   * As {@link #runAsync(RedisScriptingAsyncCommands, ScriptOutputType, String[], String...)}, running
   * {@code beforeEval} when the server answered {@code NOSCRIPT}, on the thread that brings that answer, before the
   * {@code EVAL} is sent: from then on, requests sent on the connection after the {@code EVALSHA} may have been served
   * before the script ran. On one connection the answer to an earlier request comes first, so {@code beforeEval} has
   * run by the time a later request's answer is seen.
   */
  <T> CompletionStage<T> runAsync(RedisScriptingAsyncCommands<String, String> redis, ScriptOutputType type,
      Runnable beforeEval, String[] keys, String... args) {
    CompletionStage<T> first = redis.evalsha(sha(), type, keys, args);
    return first.exceptionallyCompose(error -> {
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      if (cause instanceof RedisNoScriptException) {
        beforeEval.run();
        return redis.<T>eval(source, type, keys, args);
      }
      return CompletableFuture.failedFuture(cause);
    });
  }

  @Override
  public String toString() {
    return name + "@" + sha();
  }

  private String sha() {
    String digest = sha;
    if (digest == null) {
      digest = sha1(source);
      sha = digest;
    }
    return digest;
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JVM has no SHA-1, which Redis script digests need", e);
    }
  }
}
