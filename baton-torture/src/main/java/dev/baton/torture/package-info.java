/**
 * The torture harness: worker JVMs contend for one key (a lock, a read-write lock, a semaphore or a leadership) while
 * processes are paused and killed and {@link dev.baton.torture.ServerFaults} restart, fail over or cut off the store;
 * then their histories are checked for overlapping holds, exceeded permits and fencing tokens that went back
 * ({@link dev.baton.torture.TortureResult}). {@link dev.baton.torture.Torture#run} runs one; {@link dev.baton.torture.TortureServers}
 * gives the faults of the servers of {@code baton-servers} and {@code baton-embedded}. Run by {@code baton torture}
 * and by each store's tests (through the test kit's {@code ShortTorture}). No test framework.
 */
package dev.baton.torture;
