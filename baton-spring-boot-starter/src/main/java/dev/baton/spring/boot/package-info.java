/**
 * Spring Boot auto-configuration: a {@link dev.baton.LockClient} from the {@code baton.*} properties,
 * {@link dev.baton.spring.Locked @Locked} methods, and the {@code baton} health indicator.
 */
package dev.baton.spring.boot;
