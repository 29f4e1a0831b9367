-- The first statement of a try that may add an entry (MySqlAttempt): the next fencing token, which the driver reads
-- back as the statement's insert id. The row's lock is held to the transaction's end, so the transactions that add
-- entries run one after the other, and an entry's number is smaller than that of every entry committed after it.
UPDATE {table}_fencing SET v = LAST_INSERT_ID(v + 1) WHERE id = 1
