"""Revenue per region and product from a CSV with csv.reader."""
import csv
from decimal import Decimal

with open("data/sales.csv", newline="") as f:
    reader = csv.reader(f)
    header = next(reader)
    print("columns:", header)
    by_region = {}
    by_product = {}
    rows = 0
    for date, region, product, units, price in reader:
        rows += 1
        revenue = Decimal(units) * Decimal(price)
        by_region[region] = by_region.get(region, Decimal(0)) + revenue
        by_product[product] = by_product.get(product, Decimal(0)) + revenue

print("rows:", rows)
for region in sorted(by_region):
    print(f"{region:<6} {by_region[region]:>9}")
best = max(by_product.items(), key=lambda kv: kv[1])
print("best product:", best[0], best[1])
print("grand total:", sum(by_region.values()))
