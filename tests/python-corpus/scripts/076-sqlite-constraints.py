"""Constraint violations and error classes in sqlite3."""
import sqlite3

con = sqlite3.connect(":memory:")
con.execute("PRAGMA foreign_keys = ON")
con.executescript("""
CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL CHECK (total > 0));
""")
con.execute("INSERT INTO customers (email) VALUES ('a@example.com')")
attempts = [
    ("INSERT INTO customers (email) VALUES ('a@example.com')", ()),
    ("INSERT INTO customers (email) VALUES (NULL)", ()),
    ("INSERT INTO orders (customer_id, total) VALUES (99, 10)", ()),
    ("INSERT INTO orders (customer_id, total) VALUES (1, -5)", ()),
    ("INSERT INTO nosuch VALUES (1)", ()),
    ("SELEC 1", ()),
    ("INSERT INTO orders (customer_id, total) VALUES (?, ?)", (1,)),
    ("INSERT INTO orders (customer_id, total) VALUES (1, 12.5)", ()),
]
for sql, params in attempts:
    try:
        con.execute(sql, params)
        print("ok:", sql)
    except sqlite3.Error as e:
        print(type(e).__name__, "|", str(e).split(":")[0])
print(con.execute("SELECT count(*) FROM orders").fetchone())
print(issubclass(sqlite3.IntegrityError, sqlite3.DatabaseError), issubclass(sqlite3.OperationalError, sqlite3.Error))
cur = con.execute("INSERT INTO customers (email) VALUES ('b@example.com')")
print("lastrowid", cur.lastrowid)
con.execute("INSERT OR IGNORE INTO customers (email) VALUES ('b@example.com')")
con.execute("INSERT OR REPLACE INTO customers (id, email) VALUES (2, 'c@example.com')")
print(con.execute("SELECT * FROM customers ORDER BY id").fetchall())
