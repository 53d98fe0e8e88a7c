"""sqlite3 on a file in the workspace: schema, inserts, queries; the file is removed at the end."""
import os
import sqlite3

DB = "inventory.db"
con = sqlite3.connect(DB)
con.execute("CREATE TABLE parts (sku TEXT PRIMARY KEY, name TEXT NOT NULL, qty INTEGER, price REAL)")
rows = [("A-100", "Steel bolt M6", 1200, 0.12), ("A-101", "Steel nut M6", 1500, 0.08), ("B-200", "Wood screw 4x40", 800, 0.05),
        ("C-300", "Washer 6mm", 2500, 0.015), ("D-400", "Hinge brass", 75, 3.40)]
for r in rows:
    con.execute("INSERT INTO parts VALUES (?, ?, ?, ?)", r)
con.commit()
print(con.execute("SELECT count(*), sum(qty), round(sum(qty * price), 2) FROM parts").fetchone())
for row in con.execute("SELECT sku, name, qty FROM parts WHERE qty < ? ORDER BY qty", (1000,)):
    print(row)
print(con.execute("SELECT name FROM parts WHERE name LIKE ? ORDER BY sku", ("%M6",)).fetchall())
cur = con.execute("UPDATE parts SET qty = qty - 100 WHERE sku LIKE 'A-%'")
print("updated", cur.rowcount)
con.execute("DELETE FROM parts WHERE qty > 2000")
con.commit()
print(con.execute("SELECT group_concat(sku, ',') FROM (SELECT sku FROM parts ORDER BY sku)").fetchone()[0])
print([d[0] for d in con.execute("SELECT * FROM parts LIMIT 1").description])
con.close()
con = sqlite3.connect(DB)
print("after reopen:", con.execute("SELECT count(*) FROM parts").fetchone()[0])
print(con.execute("SELECT name, type FROM sqlite_master ORDER BY name").fetchall())
con.close()
print(os.path.getsize(DB) % 4096 == 0, os.path.getsize(DB) > 0)
os.remove(DB)
print(os.path.exists(DB))
