SELECT to_regclass('{table}') IS NOT NULL AND to_regclass('{table}_fencing') IS NOT NULL
