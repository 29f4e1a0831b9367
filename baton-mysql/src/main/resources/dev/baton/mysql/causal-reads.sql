-- On a Galera node (CausalReads, on each new connection of the client's own pool): this session's reads, updates and
-- deletes wait until the node applied everything the cluster had committed when they began; ? is the session's
-- wsrep_sync_wait with bits 1 (reads) and 2 (updates and deletes) set, keeping the others the server set.
SET SESSION wsrep_sync_wait = ?
