package dev.baton.etcd;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * How a client reaches etcd.
 *
 * @param user the etcd user, or null without authentication
 */
record EtcdSettings(List<URI> endpoints, String user, String password, String namespace, Duration leaseTtl,
    Duration commandTimeout) {}
