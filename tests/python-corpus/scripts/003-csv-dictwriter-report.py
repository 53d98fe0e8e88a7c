"""Write a summary CSV with DictWriter, then read it back."""
import csv
import os

with open("data/sales.csv", newline="") as f:
    rows = list(csv.DictReader(f))

summary = {}
for r in rows:
    s = summary.setdefault(r["product"], {"product": r["product"], "orders": 0, "units": 0, "revenue": 0.0})
    s["orders"] += 1
    s["units"] += int(r["units"])
    s["revenue"] += int(r["units"]) * float(r["unit_price"])

os.makedirs("out", exist_ok=True)
with open("out/summary.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["product", "orders", "units", "revenue", "note"], restval="-")
    w.writeheader()
    for name in sorted(summary):
        row = dict(summary[name])
        row["revenue"] = f"{row['revenue']:.2f}"
        w.writerow(row)

with open("out/summary.csv", newline="") as f:
    text = f.read()
print(repr(text))
with open("out/summary.csv", newline="") as f:
    for row in csv.DictReader(f):
        print(row["product"], row["units"], row["revenue"], row["note"])
