/** ShedLock's {@link net.javacrumbs.shedlock.core.LockProvider} over any Baton {@link dev.baton.LockClient}. */
package dev.baton.shedlock;
