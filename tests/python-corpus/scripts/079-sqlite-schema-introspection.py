"""Introspecting a schema: sqlite_master, PRAGMA table_info, indexes, a generated migration."""
import os
import sqlite3

con = sqlite3.connect("schema.db")
con.executescript("""
CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER);
CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES authors(id), year INTEGER DEFAULT 2000);
CREATE INDEX books_by_year ON books(year);
CREATE UNIQUE INDEX authors_name ON authors(name);
CREATE VIEW recent AS SELECT title FROM books WHERE year > 2010;
""")
for type_, name, tbl in con.execute("SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name"):
    print(type_, name, tbl)
for table in ("authors", "books"):
    print(table, [(c[1], c[2], bool(c[3]), c[4], bool(c[5])) for c in con.execute(f"PRAGMA table_info({table})")])
print([r[1:3] for r in con.execute("PRAGMA index_list(books)")])
print([tuple(r)[2:5] for r in con.execute("PRAGMA foreign_key_list(books)")])
con.execute("ALTER TABLE books ADD COLUMN isbn TEXT")
print([c[1] for c in con.execute("PRAGMA table_info(books)")])
con.execute("INSERT INTO authors (name, born) VALUES ('Le Guin', 1929)")
con.execute("INSERT INTO books (title, author_id) VALUES ('The Dispossessed', 1)")
print(con.execute("SELECT title, year, isbn FROM books").fetchall())
print(con.execute("PRAGMA user_version").fetchone(), con.execute("PRAGMA journal_mode").fetchone())
con.execute("PRAGMA user_version = 3")
con.commit()
con.close()
con = sqlite3.connect("schema.db")
print(con.execute("PRAGMA user_version").fetchone())
con.close()
os.remove("schema.db")
print(os.path.exists("schema.db"))
