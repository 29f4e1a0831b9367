-- Requests to release (MySqlBackend.requestRelease): one row per holder asked, addressed to the holder's client, which
-- reads and deletes its own rows while it listens (ReleaseRequests); a row no one reads is swept once it expires.
-- Made the first time a client asks or listens, not at connect, so that a user who may not create tables can use
-- the lock table without it.
CREATE TABLE IF NOT EXISTS {table}_requests (
  request_id BIGINT          NOT NULL AUTO_INCREMENT,  -- the order in which the requests were made
  client_id  VARCHAR(255)    NOT NULL,  -- the client of the holder's entry: its owner id up to the first ':'
  owner_id   VARCHAR(255)    NOT NULL,  -- the holder's entry's owner id
  lock_key   VARBINARY(1024) NOT NULL,  -- the key's UTF-8 bytes
  expires_at DATETIME(6)     NOT NULL,  -- UTC by the database's clock: a request not read by then is swept
  PRIMARY KEY (request_id),
  KEY by_client (client_id, request_id),  -- a client's poll (requests-read.sql)
  KEY by_expiry (expires_at)              -- the sweep (requests-sweep.sql)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin
