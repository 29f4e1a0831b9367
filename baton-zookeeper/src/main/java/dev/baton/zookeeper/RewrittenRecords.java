package dev.baton.zookeeper;

import dev.baton.LockHolder;
import dev.baton.spi.HolderRecord;
import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.data.Stat;

/**
 * The data of a lock node whose holder record was rewritten ({@link ZooKeeperBackend#rewriteHolder}): the record, then
 * a line {@code token=TOKEN}. A node is otherwise written only when it is granted with a token of its own, so its
 * mzxid is its token; a rewrite is a later write, so it carries the token the node was granted with, which
 * {@code status} shows.
 */
final class RewrittenRecords {
  /** The token's line: every line of a holder record ends in a line break, and no value holds one. */
  private static final String TOKEN = "\ntoken=";

  private RewrittenRecords() {}

  /** The node data naming {@code holder} for {@code grant}'s entry, with the token it was granted with. */
  static byte[] data(ZkGrant grant, LockHolder holder) {
    return (HolderRecord.write(grant.request().ownerId(), holder) + TOKEN.substring(1) + grant.fencingToken() + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The fencing token of the node read as {@code data} and {@code stat}: a rewritten node's line, else its mzxid. */
  static long token(String data, Stat stat) {
    int line = data.lastIndexOf(TOKEN);
    if (line < 0) {
      return stat.getMzxid();
    }
    int start = line + TOKEN.length();
    int end = data.indexOf('\n', start);
    try {
      return Long.parseLong(data.substring(start, end < 0 ? data.length() : end));
    } catch (NumberFormatException e) {
      return stat.getMzxid(); // not a rewrite's: data written by something else
    }
  }
}
