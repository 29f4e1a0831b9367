/**
 * Baton's own plumbing, shared by its modules: {@link dev.baton.internal.Settings}, the checks of settings with the
 * same messages everywhere; {@link dev.baton.internal.Redaction}, which hides secrets in addresses; and
 * {@link dev.baton.internal.ReleasesAhead}, the releases sent ahead of their answers that the process's other clients
 * wait for. Not API and not SPI: {@code baton-core}'s module exports this package only to Baton's modules
 * ({@code exports ... to}), and it may change in any release. Applications and third-party stores do not use it.
 */
package dev.baton.internal;
