-- MariaDB only (IdleTransactionLimit, on each new connection of the client's own pool): ends this session, and its
-- transaction, once it has been idle in a transaction for ? seconds, so that a client stopped in the middle of an
-- acquire holds the counter row's lock no longer.
SET SESSION idle_transaction_timeout = ?
