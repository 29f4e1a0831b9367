/** Micrometer meters for a Baton {@link dev.baton.LockClient}: {@link dev.baton.micrometer.BatonMetrics}. */
package dev.baton.micrometer;
