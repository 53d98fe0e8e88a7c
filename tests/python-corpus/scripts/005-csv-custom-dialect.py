"""A registered dialect for European CSV with decimal commas."""
import csv
from decimal import Decimal

csv.register_dialect("euro", delimiter=";", quotechar='"', lineterminator="\n")
print("dialects include euro:", "euro" in csv.list_dialects())

with open("data/semicolon.csv", newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f, dialect="euro"))

scores = {r["name"]: Decimal(r["score"].replace(",", ".")) for r in rows}
for name, score in sorted(scores.items(), key=lambda kv: -kv[1]):
    print(f"{name:6} {score:>5}")
avg = sum(scores.values()) / len(scores)
print("average:", avg.quantize(Decimal("0.01")))

with open("scores_us.csv", "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, dialect="excel")
    w.writerow(["name", "city", "score"])
    for r in rows:
        w.writerow([r["name"], r["city"], r["score"].replace(",", ".")])
print(open("scores_us.csv", encoding="utf-8").read(), end="")
d = csv.get_dialect("euro")
print(repr(d.delimiter), repr(d.lineterminator), d.quoting == csv.QUOTE_MINIMAL)
