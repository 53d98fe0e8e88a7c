"""Agent job: load events.jsonl into SQLite, answer questions, export a markdown report; drop the db."""
import json
import os
import sqlite3

con = sqlite3.connect("events.db")
con.execute("CREATE TABLE events (ts TEXT, user TEXT, action TEXT, query TEXT, ms INTEGER)")
with open("data/events.jsonl") as f:
    con.executemany("INSERT INTO events VALUES (:ts, :user, :action, :query, :ms)",
                    ({"query": None, **json.loads(l)} for l in f))
con.commit()
questions = {
    "events per user": "SELECT user, count(*) FROM events GROUP BY user ORDER BY count(*) DESC, user",
    "slowest actions": "SELECT action, max(ms) FROM events GROUP BY action ORDER BY max(ms) DESC LIMIT 3",
    "searches": "SELECT user, query FROM events WHERE action = 'search' ORDER BY ts",
    "sessions": """SELECT l.user, l.ts, (SELECT min(o.ts) FROM events o WHERE o.user = l.user AND o.action = 'logout' AND o.ts > l.ts)
                   FROM events l WHERE l.action = 'login' ORDER BY l.ts""",
    "per hour": "SELECT substr(ts, 12, 2) AS hour, count(*), sum(ms) FROM events GROUP BY hour ORDER BY hour",
}
lines = ["# Event report", ""]
for title, q in questions.items():
    cur = con.execute(q)
    cols = [d[0] for d in cur.description]
    lines += [f"## {title}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in cur]
    lines.append("")
con.close()
os.remove("events.db")
with open("event-report.md", "w") as f:
    f.write("\n".join(lines))
print("\n".join(lines))
