-- The privileges an acquire needs that the user lacks, listed as in a GRANT ('' if none): INSERT on the table to add
-- an entry, UPDATE to renew it, DELETE to release it, and USAGE on the sequence to number it. (SELECT is checked as
-- the client connects: shape.sql reads the table.)
SELECT concat_ws(', ',
  CASE WHEN NOT has_table_privilege('{table}', 'INSERT') THEN 'INSERT' END,
  CASE WHEN NOT has_table_privilege('{table}', 'UPDATE') THEN 'UPDATE' END,
  CASE WHEN NOT has_table_privilege('{table}', 'DELETE') THEN 'DELETE' END,
  CASE WHEN NOT has_sequence_privilege('{table}_fencing', 'USAGE') THEN 'USAGE on the sequence {table}_fencing' END)
