"""executemany with dicts, sqlite3.Row, a custom row factory, and fetchmany."""
import json
import os
import sqlite3

with open("data/users.json") as f:
    users = json.load(f)

con = sqlite3.connect("users.db")
con.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT, active INTEGER, score REAL, roles TEXT)")
con.executemany(
    "INSERT INTO users VALUES (:id, :name, :email, :active, :score, :roles)",
    [dict(u, roles=",".join(u["roles"])) for u in users],
)
con.commit()
con.row_factory = sqlite3.Row
row = con.execute("SELECT * FROM users WHERE name = ?", ("ada",)).fetchone()
print(row.keys(), row["email"], row[0], tuple(row), dict(row)["score"])
for r in con.execute("SELECT name, score FROM users WHERE active ORDER BY score DESC"):
    print(f"{r['name']:8} {r['score']:6.2f}")


def dict_factory(cursor, row):
    return {d[0]: v for d, v in zip(cursor.description, row)}


con.row_factory = dict_factory
cur = con.execute("SELECT id, name, roles FROM users ORDER BY id")
print(cur.fetchmany(2))
print(cur.fetchmany(2))
print(len(cur.fetchall()))
con.row_factory = None
print(con.execute("SELECT count(*) FROM users WHERE roles LIKE '%dev%'").fetchone())
print(con.execute("SELECT typeof(id), typeof(name), typeof(active), typeof(score), typeof(NULL) FROM users LIMIT 1").fetchone())
print(con.execute("SELECT ?, ?, ?, ?", (1, 2.5, "x", b"\x00\x01")).fetchone())
con.close()
os.remove("users.db")
print("ok")
