INSERT IGNORE INTO {table}_fencing (id, v) VALUES (1, 0)
