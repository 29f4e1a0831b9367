/** Baton's locks as Project Reactor publishers. */
module dev.baton.reactor {
  requires transitive dev.baton.core;
  requires transitive reactor.core;
  requires transitive org.reactivestreams;

  exports dev.baton.reactor;
}
