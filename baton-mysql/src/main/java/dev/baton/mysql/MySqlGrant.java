package dev.baton.mysql;

import dev.baton.spi.AcquireRequest;
import dev.baton.spi.Grant;

/**
 * A held entry of the lock table.
 *
 * @param request what was asked
 * @param fencingToken the entry's id, which is its fencing token
 */
record MySqlGrant(AcquireRequest request, long fencingToken) implements Grant {}
