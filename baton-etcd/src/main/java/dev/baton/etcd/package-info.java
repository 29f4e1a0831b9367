/** Baton's etcd backend: {@link dev.baton.etcd.EtcdLockClient}. */
package dev.baton.etcd;
