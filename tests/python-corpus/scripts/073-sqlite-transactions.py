"""Transactions: commit, rollback, context-manager rollback on error, savepoints."""
import os
import sqlite3

con = sqlite3.connect("bank.db")
con.execute("CREATE TABLE accounts (name TEXT PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0))")
con.executemany("INSERT INTO accounts VALUES (?, ?)", [("alice", 100), ("bob", 50), ("carol", 0)])
con.commit()


def balances():
    return dict(con.execute("SELECT name, balance FROM accounts ORDER BY name"))


def transfer(src, dst, amount):
    try:
        with con:
            con.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (amount, dst))
            con.execute("UPDATE accounts SET balance = balance - ? WHERE name = ?", (amount, src))
        return "ok"
    except sqlite3.IntegrityError as e:
        return "refused: " + str(e)


print(transfer("alice", "bob", 30), balances())
print(transfer("bob", "carol", 500), balances())
con.execute("UPDATE accounts SET balance = 999 WHERE name = 'carol'")
print("in transaction:", con.in_transaction, balances()["carol"])
con.rollback()
print("rolled back:", con.in_transaction, balances()["carol"])
con.execute("SAVEPOINT sp1")
con.execute("UPDATE accounts SET balance = 1 WHERE name = 'alice'")
con.execute("ROLLBACK TO sp1")
con.execute("RELEASE sp1")
con.commit()
print(balances())
con.execute("UPDATE accounts SET balance = 77 WHERE name = 'carol'")
con.commit()
con.close()
con = sqlite3.connect("bank.db")
print("reopened:", balances())
con.close()
os.remove("bank.db")
print(sorted(f for f in os.listdir(".") if f.startswith("bank")))
