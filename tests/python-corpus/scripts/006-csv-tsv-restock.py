"""Read a TSV inventory, flag low stock, write a restock list."""
import csv

LOW = 100
with open("data/inventory.tsv", newline="") as f:
    items = list(csv.DictReader(f, delimiter="\t"))

low = [i for i in items if int(i["qty"]) < LOW]
print(f"{len(items)} items, {len(low)} below {LOW}")
for i in sorted(low, key=lambda i: int(i["qty"])):
    print(f"  {i['sku']:6} {i['name']:<18} {int(i['qty']):>5}  {i['location']}")

by_aisle = {}
for i in items:
    by_aisle.setdefault(i["location"], []).append(i["sku"])
for aisle in sorted(by_aisle):
    print(aisle, "->", ",".join(by_aisle[aisle]))

with open("restock.tsv", "w", newline="") as f:
    w = csv.writer(f, delimiter="\t", lineterminator="\n")
    w.writerow(["sku", "order_qty"])
    for i in low:
        w.writerow([i["sku"], LOW * 2 - int(i["qty"])])
print(open("restock.tsv").read(), end="")
