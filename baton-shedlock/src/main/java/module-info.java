/** ShedLock's scheduled-task locks on Baton's lock clients. */
module dev.baton.shedlock {
  requires transitive dev.baton.core;
  requires transitive net.javacrumbs.shedlock.core;
  requires org.slf4j;

  exports dev.baton.shedlock;
}
