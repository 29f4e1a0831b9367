/**
 * The benchmark suite that {@code bench/run} runs: every lock implementation on the same servers in one run,
 * scenario by scenario, and the page {@code docs/benchmarks.md} with its charts.
 *
 * <p>{@link dev.baton.bench.suite.Suite} is the entry point; {@link dev.baton.bench.suite.Worker} is the second
 * JVM of the cross-process scenarios and the one where heap is measured, away from the in-process ZooKeeper server.
 */
package dev.baton.bench.suite;
