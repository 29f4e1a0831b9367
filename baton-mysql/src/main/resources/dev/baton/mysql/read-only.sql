-- Whether the server takes no writes: a replica, or a primary set read-only (LockTable refuses to connect to it).
SELECT @@global.read_only
