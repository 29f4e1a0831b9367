-- Whether the server is a Galera node (wsrep_on = ON, with a provider loaded) and whether this session's statements
-- wait until the node applied what the cluster committed before them (wsrep_sync_wait: CausalReads). No row on a
-- server without Galera (MySQL); OFF and none on MariaDB alone.
SHOW VARIABLES WHERE Variable_name IN ('wsrep_on', 'wsrep_provider', 'wsrep_sync_wait')
