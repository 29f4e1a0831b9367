-- Whether this connection runs claim-block.sql's kind of statement (ClaimStatement, as a client on an application's
-- DataSource connects): a compound statement with a bound parameter that starts and commits a transaction and returns
-- a result. MariaDB runs it and returns the parameter; MySQL refuses BEGIN NOT ATOMIC as a syntax error, and a server
-- may refuse a compound statement that the pool's driver prepares on the server.
BEGIN NOT ATOMIC
  START TRANSACTION;
  SELECT ?;
  COMMIT;
END
