"""Joins and GROUP BY over tables loaded from the fixture's CSVs."""
import csv
import os
import sqlite3

con = sqlite3.connect("company.db")
con.executescript("""
CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, dept TEXT, salary INTEGER, start_date TEXT, manager_id INTEGER);
CREATE TABLE depts (name TEXT PRIMARY KEY, floor INTEGER);
INSERT INTO depts VALUES ('engineering', 3), ('sales', 1), ('support', 2), ('legal', 4);
""")
with open("data/employees.csv", newline="", encoding="utf-8") as f:
    rows = [(int(r["id"]), r["name"], r["dept"], int(r["salary"]), r["start_date"], int(r["manager_id"]) if r["manager_id"] else None)
            for r in csv.DictReader(f)]
con.executemany("INSERT INTO employees VALUES (?, ?, ?, ?, ?, ?)", rows)
con.commit()
q = """
SELECT d.name, d.floor, count(e.id), coalesce(avg(e.salary), 0), max(e.salary)
FROM depts d LEFT JOIN employees e ON e.dept = d.name
GROUP BY d.name ORDER BY d.floor
"""
for row in con.execute(q):
    print(row)
print(con.execute("SELECT dept FROM employees WHERE dept NOT IN (SELECT name FROM depts) GROUP BY dept").fetchall())
q = """
SELECT e.name, m.name FROM employees e JOIN employees m ON e.manager_id = m.id
WHERE m.dept = 'engineering' ORDER BY e.name
"""
for row in con.execute(q):
    print(" -> ".join(row))
print(con.execute("SELECT dept, count(*) c FROM employees GROUP BY dept HAVING c >= 3 ORDER BY c DESC, dept").fetchall())
print(con.execute("SELECT name FROM employees WHERE start_date < '2017-01-01' ORDER BY start_date").fetchall())
print(con.execute("SELECT substr(start_date, 1, 4) y, count(*) FROM employees GROUP BY y ORDER BY y").fetchall())
con.close()
os.remove("company.db")
print("removed")
