/** Spring Integration's {@link org.springframework.integration.support.locks.LockRegistry} over any Baton backend. */
package dev.baton.spring.integration;
