/** Spring Integration's lock registry on Baton's lock clients. */
module dev.baton.spring.integration {
  requires transitive dev.baton.core;
  requires transitive spring.integration.core;

  exports dev.baton.spring.integration;
}
