"""Two connections to one database file: a reader while the writer's transaction is open."""
import os
import sqlite3

writer = sqlite3.connect("shared.db")
writer.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, state TEXT)")
writer.executemany("INSERT INTO jobs (state) VALUES (?)", [("queued",), ("queued",), ("done",)])
writer.commit()
reader = sqlite3.connect("shared.db")
print("reader before:", reader.execute("SELECT state, count(*) FROM jobs GROUP BY state ORDER BY state").fetchall())
writer.execute("UPDATE jobs SET state = 'running' WHERE id = 1")
print("writer in transaction:", writer.in_transaction)
print("reader during:", reader.execute("SELECT state FROM jobs WHERE id = 1").fetchone())
writer.commit()
print("reader after:", reader.execute("SELECT state FROM jobs WHERE id = 1").fetchone())
reader.close()
writer.close()
os.remove("shared.db")
print("done")
