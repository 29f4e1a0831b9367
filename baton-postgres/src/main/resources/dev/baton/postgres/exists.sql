SELECT to_regclass('{table}') IS NOT NULL AND to_regclass('{table}_fencing') IS NOT NULL AS made,
       to_regclass('{table}_expires_at') IS NOT NULL AS indexed
