/**
 * A {@link dev.baton.LockClient} from a backend URI: {@link dev.baton.connect.LockClients#connect(String)}. The
 * backend modules are optional dependencies; the application brings the one its URI names.
 */
package dev.baton.connect;
