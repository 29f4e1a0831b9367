package dev.baton.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Writes, for each store, the class path {@code bin/baton} gives a command on that store: {@code lib/redis.classpath},
 * {@code lib/zookeeper.classpath}, {@code lib/etcd.classpath}, {@code lib/postgres.classpath},
 * {@code lib/mysql.classpath} and {@code lib/memory.classpath}, each one line of the jars of {@code lib/} that line
 * needs, separated by colons: the command's classes (the jar without a manifest class path, which would bring every
 * jar back), then, in the build's class path order, every jar the store's module, baton-connect and the log binding
 * reach. A class path of a store's jars alone (about 20, against 80) spares the JVM opening every jar at the first class
 * none holds, and lets the store's class-data archive hold that store's classes alone.
 *
 * <p>The jars come from Maven's dependency tree of the command with the dependencies Maven omitted as duplicates or
 * conflicts shown ({@code dependency:tree -Dverbose}): a jar two stores share is drawn once under the first, and
 * belongs on the class path of both. The build runs it at prepare-package; a store module missing from the tree
 * fails the build rather than leave a class path short.
 */
public final class StoreClassPaths {
  /** Each store, by the name {@code bin/baton} gives it, and its module; {@code memory://} is baton-core's. */
  private static final Map<String, List<String>> STORES = stores();

  /** What every store's commands need besides the store's module: the backend URI's connector, the log binding. */
  private static final List<String> COMMON = List.of("dev.baton:baton-connect", "org.slf4j:slf4j-simple");

  private static final Set<String> NOT_AT_RUN_TIME = Set.of("test", "provided", "system");

  private StoreClassPaths() {}

  /**
   * Reads the verbose dependency tree in the file {@code args[0]} and writes each store's class path into the
   * directory {@code args[1]}, headed by the command's jar named {@code args[2]}.
   */
  public static void main(String[] args) {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: StoreClassPaths DEPENDENCY_TREE OUTPUT_DIRECTORY COMMAND_JAR (got "
          + args.length + " arguments)");
    }
    List<Node> tree = parse(read(Path.of(args[0])));
    if (tree.stream().noneMatch(Node::omitted)) {
      throw new IllegalStateException("The dependency tree " + args[0] + " shows no dependency Maven omitted as a"
          + " duplicate, which a tree of several stores sharing Netty has: write it with dependency:tree's verbose"
          + " set, or a store's class path would miss the jars it shares with a store drawn before it.");
    }
    Path output = Path.of(args[1]);
    STORES.forEach((store, modules) -> {
      List<String> seeds = new ArrayList<>(COMMON);
      seeds.addAll(modules);
      StringJoiner classPath = new StringJoiner(":", "", "\n").add(args[2]);
      jars(tree, seeds).forEach(classPath::add);
      DistributionFiles.write(output.resolve(store + ".classpath"), classPath.toString());
    });
  }

  private static Map<String, List<String>> stores() {
    Map<String, List<String>> stores = new LinkedHashMap<>();
    stores.put("redis", List.of("dev.baton:baton-redis"));
    stores.put("zookeeper", List.of("dev.baton:baton-zookeeper"));
    stores.put("etcd", List.of("dev.baton:baton-etcd"));
    stores.put("postgres", List.of("dev.baton:baton-postgres"));
    stores.put("mysql", List.of("dev.baton:baton-mysql"));
    stores.put("memory", List.of());
    return stores;
  }

  /** The file names of the jars {@code seeds} reach, in the tree's order (Maven's class path order). */
  static List<String> jars(List<Node> tree, List<String> seeds) {
    Map<String, Node> kept = new LinkedHashMap<>();
    for (Node node : tree) {
      if (!node.omitted()) {
        kept.putIfAbsent(node.key(), node);
      }
    }
    Set<String> reached = new LinkedHashSet<>();
    Deque<String> toVisit = new ArrayDeque<>(seeds);
    while (!toVisit.isEmpty()) {
      String key = toVisit.pop();
      if (!reached.add(key)) {
        continue;
      }
      Node node = kept.get(key);
      if (node == null) {
        throw new IllegalStateException("The dependency tree has no " + key + " that the command's runtime class path"
            + " holds: add it to baton-cli's dependencies, or correct StoreClassPaths' list of stores.");
      }
      node.children().forEach(child -> toVisit.push(child.key()));
    }
    return kept.values().stream().filter(node -> reached.contains(node.key())).map(Node::fileName)
        .filter(Objects::nonNull).toList();
  }

  /**
   * The nodes of a dependency tree in maven-dependency-plugin's text form, in order, each with its children; the
   * project's own line, and the dependencies not on the runtime class path, left out.
   */
  static List<Node> parse(List<String> lines) {
    List<Node> nodes = new ArrayList<>();
    List<Node> path = new ArrayList<>(); // the line's ancestors by depth, null for one left out
    for (String line : lines) {
      int start = coordinatesStart(line);
      if (start <= 0) {
        continue; // blank, or the project itself
      }
      int depth = start / 3;
      if (depth > path.size() + 1) {
        throw new IllegalArgumentException("Not a dependency tree in maven-dependency-plugin's text form: '" + line
            + "' is drawn below no line.");
      }
      path.subList(depth - 1, path.size()).clear();
      Node parent = depth > 1 ? path.get(depth - 2) : null;
      Node node = depth > 1 && parent == null ? null : Node.of(line.substring(start));
      if (node != null) {
        if (parent != null) {
          parent.children().add(node);
        }
        nodes.add(node);
      }
      path.add(node);
    }
    return nodes;
  }

  private static int coordinatesStart(String line) {
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c != ' ' && c != '|' && c != '+' && c != '-' && c != '\\') {
        return i;
      }
    }
    return -1;
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the dependency tree " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * One line of the tree: {@code group:artifact:type[:classifier]:version:scope}, in parentheses with the reason when
   * Maven omitted it (then without children: they are under the line Maven kept).
   *
   * @param key group, artifact and classifier: what one jar of lib/ is, whatever its version
   * @param fileName the jar's name in lib/ ({@code artifact-version[-classifier].jar}), null for a type not a jar
   * @param omitted whether Maven omitted this occurrence for another
   * @param children the dependencies drawn under it
   */
  record Node(String key, String fileName, boolean omitted, List<Node> children) {
    /** The node a line's coordinates describe, or null for a dependency not on the runtime class path. */
    static Node of(String text) {
      boolean omitted = text.startsWith("(");
      String coordinates = text.substring(omitted ? 1 : 0).split("[ )]", 2)[0];
      String[] parts = coordinates.split(":");
      if (parts.length < 5 || parts.length > 6) {
        throw new IllegalArgumentException("Not a dependency of Maven's tree: '" + text + "': expected"
            + " group:artifact:type[:classifier]:version:scope; run dependency:tree with outputType text.");
      }
      String scope = parts[parts.length - 1];
      if (NOT_AT_RUN_TIME.contains(scope)) {
        return null;
      }
      String classifier = parts.length == 6 ? parts[3] : "";
      String version = parts[parts.length - 2];
      String fileName = parts[2].equals("jar")
          ? parts[1] + "-" + version + (classifier.isEmpty() ? "" : "-" + classifier) + ".jar" : null;
      String key = parts[0] + ":" + parts[1] + (classifier.isEmpty() ? "" : ":" + classifier);
      return new Node(key, fileName, omitted, new ArrayList<>());
    }
  }
}
