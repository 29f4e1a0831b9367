package dev.baton.spring;

import dev.baton.LockClient;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;

/**
 * Proxies the beans that have {@link Locked} methods, checking every annotation when the bean is created. The
 * Spring Boot starter registers it; elsewhere declare it as a static {@code @Bean}:
 *
 * <pre>{@code
 * @Bean
 * static LockedBeanPostProcessor lockedBeanPostProcessor(ObjectProvider<LockClient> client) {
 *   return new LockedBeanPostProcessor(client);
 * }
 * }</pre>
 *
 * <p>Its advice comes before other advisors of the same bean, so a lock is taken before a transaction begins and
 * released after it ends.
 */
public final class LockedBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor
    implements DisposableBean {
  private final ObjectProvider<LockClient> client;
  private final DeferredReleases deferred = new DeferredReleases();
  private LockedMethods methods;

  /** @param client the client the locks are taken from, looked up at the first call */
  public LockedBeanPostProcessor(ObjectProvider<LockClient> client) {
    if (client == null) {
      throw new IllegalArgumentException("The LockClient provider must not be null; inject ObjectProvider<LockClient>.");
    }
    this.client = client;
    setBeforeExistingAdvisors(true);
    setProxyTargetClass(true);
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    super.setBeanFactory(beanFactory);
    methods = new LockedMethods(beanFactory instanceof ConfigurableBeanFactory configurable
        ? new EmbeddedValueResolver(configurable) : null);
    this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Locked.class, true),
        new LockedInterceptor(methods, this::lockClient, beanFactory, deferred));
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (methods != null) {
      methods.inspect(AopUtils.getTargetClass(bean));
    }
    return super.postProcessAfterInitialization(bean, beanName);
  }

  /** Releases at once the locks still kept for their {@code holdAtLeast}: the application is stopping. */
  @Override
  public void destroy() {
    deferred.close();
  }

  private LockClient lockClient() {
    try {
      return client.getObject();
    } catch (NoSuchBeanDefinitionException e) {
      throw new IllegalStateException("A @Locked method was called but the application has no LockClient bean: set"
          + " baton.backend (e.g. redis://127.0.0.1:6379) or declare a LockClient @Bean.", e);
    }
  }
}
