"""Import a CSV into SQLite, build a report, and write it out as CSV (the db is deleted)."""
import csv
import os
import sqlite3

os.makedirs("reports", exist_ok=True)
con = sqlite3.connect("reports/sales.db")
con.execute("CREATE TABLE sales (date TEXT, region TEXT, product TEXT, units INTEGER, unit_price REAL)")
with open("data/sales.csv", newline="") as f:
    reader = csv.reader(f)
    next(reader)
    con.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?)", reader)
con.commit()
print(con.execute("SELECT typeof(units), typeof(unit_price) FROM sales LIMIT 1").fetchone())
q = """
SELECT region, product, sum(units) AS units, round(sum(units * unit_price), 2) AS revenue
FROM sales GROUP BY region, product ORDER BY region, revenue DESC
"""
cur = con.execute(q)
header = [d[0] for d in cur.description]
rows = cur.fetchall()
with open("reports/by_region_product.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(header)
    w.writerows(rows)
print(open("reports/by_region_product.csv").read(), end="")
best = con.execute("SELECT date, sum(units * unit_price) r FROM sales GROUP BY date ORDER BY r DESC LIMIT 1").fetchone()
print("best day:", best[0], round(best[1], 2))
con.close()
os.remove("reports/sales.db")
print(sorted(os.listdir("reports")))
