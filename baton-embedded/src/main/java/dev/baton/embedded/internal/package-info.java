/**
 * Baton's own plumbing for the servers it starts: free loopback ports ({@link dev.baton.embedded.internal.Loopback}),
 * working directories ({@link dev.baton.embedded.internal.WorkDirs}) and polling a server's state
 * ({@link dev.baton.embedded.internal.Poll}), shared by {@code baton-embedded}, {@code baton-servers},
 * {@code baton-torture} and Baton's tests. Not API: it may change in any release. (The module has no module
 * descriptor, ZooKeeper's server being no named module, so this package is told apart by its name.)
 */
package dev.baton.embedded.internal;
