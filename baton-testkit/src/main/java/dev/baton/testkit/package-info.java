/**
 * Test support shared by every backend: real servers started as child processes
 * ({@link dev.baton.testkit.RedisServer}), the contract suite every backend passes
 * ({@link dev.baton.testkit.LockClientContract}) and the helpers it is built from.
 */
package dev.baton.testkit;
