/** A Spring Boot application whose scheduled report runs on one instance per tick, however many run. */
package dev.baton.examples.report;
