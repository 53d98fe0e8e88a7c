"""User-defined SQL functions, aggregates and collations."""
import re
import sqlite3

con = sqlite3.connect(":memory:")
con.create_function("slug", 1, lambda s: re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-"), deterministic=True)
con.create_function("regexp", 2, lambda pattern, value: re.search(pattern, value) is not None)


class Median:
    def __init__(self):
        self.values = []

    def step(self, value):
        self.values.append(value)

    def finalize(self):
        v = sorted(self.values)
        n = len(v)
        return (v[n // 2] + v[(n - 1) // 2]) / 2 if n else None


con.create_aggregate("median", 1, Median)
con.create_collation("reverse", lambda a, b: (a < b) - (a > b))
con.execute("CREATE TABLE t (name TEXT, n INTEGER)")
con.executemany("INSERT INTO t VALUES (?, ?)", [("Hello World", 3), ("Ünïcode Name", 10), ("a_b c", 7), ("Zed", 1)])
print(con.execute("SELECT slug(name) FROM t ORDER BY n").fetchall())
print(con.execute("SELECT name FROM t WHERE name REGEXP '^[A-Z]' ORDER BY name").fetchall())
print(con.execute("SELECT median(n), avg(n), total(n) FROM t").fetchone())
print(con.execute("SELECT name FROM t ORDER BY name COLLATE reverse").fetchall())
print(con.execute("SELECT upper('abc'), length('héllo'), abs(-3), max(1, 5, 2), nullif(1, 1), ifnull(NULL, 'x')").fetchone())
print(con.execute("SELECT 7 / 2, 7 / 2.0, 7 % 3, round(2.5), round(-2.5), cast('12' AS INTEGER) + 1").fetchone())
print(con.execute("SELECT date('2024-02-28', '+1 day'), strftime('%Y-%W', '2024-03-01'), julianday('2024-03-01') - julianday('2024-01-01')").fetchone())
print(con.execute("SELECT json_extract('{\"a\": [1, 2, {\"b\": 3}]}', '$.a[2].b')").fetchone())
