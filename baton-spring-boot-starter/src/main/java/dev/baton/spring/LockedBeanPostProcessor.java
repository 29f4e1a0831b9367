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
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

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
    implements DisposableBean, ApplicationListener<ContextClosedEvent> {
  private final ObjectProvider<LockClient> client;
  private final DeferredReleases deferred = new DeferredReleases();
  private volatile boolean stopping;
  private BeanFactory beanFactory;
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
    this.beanFactory = beanFactory;
    methods = new LockedMethods(beanFactory instanceof ConfigurableBeanFactory configurable
        ? new EmbeddedValueResolver(configurable) : null);
    this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, Locked.class, true),
        new LockedInterceptor(methods, this::lockClient, beanFactory, deferred, () -> stopping));
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (methods != null) {
      methods.inspect(AopUtils.getTargetClass(bean));
    }
    return super.postProcessAfterInitialization(bean, beanName);
  }

  /**
   * The application is stopping: from now on a run of a method that skips when its lock is taken (a scheduled job,
   * by default) is skipped quietly, as its client closes before every scheduler has stopped.
   */
  @Override
  public void onApplicationEvent(ContextClosedEvent event) {
    if (event.getApplicationContext().getAutowireCapableBeanFactory() == beanFactory) {
      stopping = true;
    }
  }

  /** Releases at once the locks still kept for their {@code holdAtLeast}: the application is stopping. */
  @Override
  public void destroy() {
    stopping = true;
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
