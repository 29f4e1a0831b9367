/**
 * {@link dev.baton.spring.Locked @Locked} methods on Spring beans: the method runs under a Baton lock whose key
 * a SpEL expression computes from its arguments. The Spring Boot starter registers the
 * {@link dev.baton.spring.LockedBeanPostProcessor}; without Boot, declare it as a static bean.
 */
package dev.baton.spring;
