-- A request to release: addressed to client ?, for its entry ? of key ?, swept if no one reads it within ? ms.
INSERT INTO {table}_requests (client_id, owner_id, lock_key, expires_at)
VALUES (?, ?, ?, UTC_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND)
