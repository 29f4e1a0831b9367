-- The counter of fencing tokens: one row, whose v only grows (next-token.sql). A row of InnoDB, not an AUTO_INCREMENT
-- column, so that no server restart and no emptied lock table ever hands out a number again.
CREATE TABLE IF NOT EXISTS {table}_fencing (
  id TINYINT NOT NULL PRIMARY KEY,
  v  BIGINT  NOT NULL
) ENGINE = InnoDB
