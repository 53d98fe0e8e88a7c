"""Window functions, CTEs, UPSERT and RETURNING."""
import sqlite3

con = sqlite3.connect(":memory:")
con.execute("CREATE TABLE scores (player TEXT, game INTEGER, points INTEGER)")
data = [("ana", 1, 10), ("ana", 2, 15), ("ana", 3, 7), ("ben", 1, 12), ("ben", 2, 12), ("ben", 3, 20), ("cy", 1, 5), ("cy", 3, 30)]
con.executemany("INSERT INTO scores VALUES (?, ?, ?)", data)
q = """
SELECT player, game, points,
       sum(points) OVER (PARTITION BY player ORDER BY game) AS running,
       rank() OVER (PARTITION BY game ORDER BY points DESC) AS rnk,
       lag(points) OVER (PARTITION BY player ORDER BY game) AS prev
FROM scores ORDER BY player, game
"""
for row in con.execute(q):
    print(row)
q = """
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 10)
SELECT group_concat(a, ' ') FROM fib
"""
print(con.execute(q).fetchone()[0])
con.execute("CREATE TABLE totals (player TEXT PRIMARY KEY, points INTEGER)")
for player, _, points in data:
    con.execute("INSERT INTO totals VALUES (?, ?) ON CONFLICT(player) DO UPDATE SET points = points + excluded.points", (player, points))
print(con.execute("SELECT * FROM totals ORDER BY points DESC").fetchall())
print(con.execute("UPDATE totals SET points = points * 2 WHERE player = 'cy' RETURNING player, points").fetchall())
q = "SELECT player, points, ntile(2) OVER (ORDER BY points) FROM totals ORDER BY points"
print(con.execute(q).fetchall())
