/** Micrometer metrics and observations of Baton's lock clients. */
module dev.baton.micrometer {
  requires transitive dev.baton.core;
  requires transitive micrometer.core;
  requires transitive micrometer.observation;

  exports dev.baton.micrometer;
}
