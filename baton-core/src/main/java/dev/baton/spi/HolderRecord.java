package dev.baton.spi;

import dev.baton.LockHolder;
import dev.baton.LockStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a backend writes an entry's owner id and {@link LockHolder} as text at the store, and reads it back: one
 * {@code name=value} line each, readable with the store's own tools ({@code etcdctl get}, {@code zkCli get},
 * {@code redis-cli hget}); a key held for a multi-lock has a {@code multi=KEYS SET} line too
 * ({@link LockHolder.MultiLock}). Values are cut to {@value #MAX_VALUE_LENGTH} characters and hold no line breaks, so an
 * entry stays small whatever a thread is called. Text without those lines (an older Baton's bare owner id) reads as
 * the owner id with no holder.
 *
 * <p>For store authors: a store writes {@link AcquireRequest#ownerRecord()} (made with {@link #write(String,
 * LockHolder)}) or {@link #write(LockHolder)} into its entry, and reads it back for {@link LockBackend#status}, so that
 * {@code baton status} and every store show the holder alike.
 */
public final class HolderRecord {
  /** The longest value written. */
  public static final int MAX_VALUE_LENGTH = 64;

  private static final String OWNER = "owner";
  private static final String HOST = "host";
  private static final String PID = "pid";
  private static final String THREAD = "thread";
  private static final String SINCE = "since";
  /** Written only for a holder that lingers ({@link LockHolder#linger}), as milliseconds. */
  private static final String LINGER = "linger";
  /** The multi-lock the key is held for: {@code multi=KEYS SET}, e.g. {@code multi=3 5f2a9c01e3b4d7a8}. */
  private static final String MULTI = "multi";

  private final String ownerId;
  private final LockHolder holder;

  private HolderRecord(String ownerId, LockHolder holder) {
    this.ownerId = ownerId;
    this.holder = holder;
  }

  /** The owner id and the holder, as lines. */
  public static String write(String ownerId, LockHolder holder) {
    StringBuilder text = new StringBuilder(160);
    line(text, OWNER, ownerId);
    return write(text, holder);
  }

  /** The holder alone, as lines (for a store that keeps the owner id apart). */
  public static String write(LockHolder holder) {
    return write(new StringBuilder(128), holder);
  }

  private static String write(StringBuilder text, LockHolder holder) {
    line(text, HOST, holder.host());
    line(text, PID, Long.toString(holder.pid()));
    line(text, THREAD, holder.thread());
    text.append(SINCE).append('=');
    Since.append(text, holder.acquiredAt());
    text.append('\n');
    if (holder.lingers()) {
      line(text, LINGER, Long.toString(holder.linger().toMillis()));
    }
    holder.multiLock().ifPresent(multi -> line(text, MULTI, multi.keys() + " " + multi.set()));
    return text.toString();
  }

  /** Reads what {@link #write} wrote; the owner id is the whole text if it has no owner line. */
  public static HolderRecord read(String text) {
    Map<String, String> fields = fields(text);
    return new HolderRecord(fields.getOrDefault(OWNER, text), holder(fields));
  }

  /** The status of a lock held by the entry this record was read from. */
  public LockStatus held(String key, long fencingToken, Duration remainingTtl, int waiters) {
    return LockStatuses.held(key, ownerId, fencingToken, remainingTtl, waiters, holder);
  }

  /** The owner id: the text's owner line, or the whole text if it has none. */
  public String ownerId() {
    return ownerId;
  }

  /** The holder, if the text described one. */
  public Optional<LockHolder> holder() {
    return Optional.ofNullable(holder);
  }

  private static LockHolder holder(Map<String, String> fields) {
    String host = fields.get(HOST);
    String thread = fields.get(THREAD);
    if (host == null || thread == null) {
      return null;
    }
    try {
      return new LockHolder(host, Long.parseLong(fields.getOrDefault(PID, "0")), thread,
          Instant.parse(fields.getOrDefault(SINCE, Instant.EPOCH.toString())),
          Duration.ofMillis(Math.max(0, Long.parseLong(fields.getOrDefault(LINGER, "0")))), multiLock(fields.get(MULTI)));
    } catch (NumberFormatException | DateTimeParseException e) {
      return null; // written by something else: an entry without holder details is still a held entry
    }
  }

  /** The multi-lock of a {@code multi} line's value; empty if there is none or it does not read as one. */
  private static Optional<LockHolder.MultiLock> multiLock(String value) {
    if (value == null) {
      return Optional.empty();
    }
    int space = value.indexOf(' ');
    if (space <= 0 || space == value.length() - 1) {
      return Optional.empty();
    }
    try {
      return Optional.of(new LockHolder.MultiLock(Integer.parseInt(value.substring(0, space)),
          value.substring(space + 1)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Map<String, String> fields(String text) {
    Map<String, String> fields = new HashMap<>();
    for (String line : text.split("\n")) {
      int equals = line.indexOf('=');
      if (equals > 0) {
        fields.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return fields;
  }

  private static void line(StringBuilder text, String name, String value) {
    String clean = withoutControlCharacters(value);
    int end = clean.length() <= MAX_VALUE_LENGTH ? clean.length() : clean.offsetByCodePoints(0,
        clean.codePointCount(0, MAX_VALUE_LENGTH));
    text.append(name).append('=').append(clean, 0, end).append('\n');
  }

  /** {@code value} with each control character (a line break would end the field) replaced by a space. */
  private static String withoutControlCharacters(String value) {
    // Written on every acquisition: a scan, not a regular expression, as values rarely hold one.
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        char[] chars = value.toCharArray();
        for (int j = i; j < chars.length; j++) {
          if (Character.isISOControl(chars[j])) {
            chars[j] = ' ';
          }
        }
        return new String(chars);
      }
    }
    return value;
  }

  /**
   * Writes an instant as {@link Instant#toString()} does, always with nine digits of fraction, which
   * {@link Instant#parse} reads back exactly. Every acquisition writes one, and {@code toString()} works out the date
   * of each: here the text of the second is kept until the clock leaves it.
   */
  private static final class Since {
    private static volatile Second last = new Second(Long.MIN_VALUE, "");

    private record Second(long epochSecond, String text) {}

    static void append(StringBuilder text, Instant at) {
      Second second = last;
      if (second.epochSecond() != at.getEpochSecond()) {
        String whole = Instant.ofEpochSecond(at.getEpochSecond()).toString(); // ends in "Z"
        second = new Second(at.getEpochSecond(), whole.substring(0, whole.length() - 1));
        last = second;
      }
      text.append(second.text()).append('.');
      String nanos = Integer.toString(at.getNano());
      for (int pad = nanos.length(); pad < 9; pad++) {
        text.append('0');
      }
      text.append(nanos).append('Z');
    }
  }
}
