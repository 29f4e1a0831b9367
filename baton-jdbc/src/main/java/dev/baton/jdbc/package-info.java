/**
 * Internal to Baton: what its SQL stores ({@code baton-postgres}, {@code baton-mysql}) share on JDBC, with no driver
 * of its own. Not an API: exported by the module only to those two stores, and changed with them. Each store brings
 * what differs: its driver, its SQL (resource files beside its own classes, read with {@link SqlFiles}), how its
 * errors map to Baton's ({@link ErrorTranslation}), what a new connection or a transaction sets up first
 * ({@link ConnectionSetup}) and how its addresses are written ({@link AddressFormat}).
 *
 * <p>Shared here: borrowing connections for one call ({@link Connections}: the application's pool,
 * {@link DataSourceConnections}, or Baton's own, {@link PooledConnections}); running a call or a short transaction,
 * bounded by the command timeout ({@link JdbcCalls}, {@link CallDeadlines}); the rows of the lock table and the status
 * they describe ({@link Entry}); the background removal of expired entries ({@link Sweeper}); the check of the lock
 * table's name ({@link SqlFiles}); addresses split into a JDBC URL and credentials ({@link JdbcAddress}); and the
 * settings both stores' builders take alike ({@link ClientSettings}).
 */
package dev.baton.jdbc;
