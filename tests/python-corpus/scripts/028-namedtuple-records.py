"""namedtuple records: parsing rows, _replace, _asdict, defaults, sorting."""
import csv
from collections import namedtuple

Sale = namedtuple("Sale", "date region product units unit_price")
with open("data/sales.csv", newline="") as f:
    r = csv.reader(f)
    next(r)
    sales = [Sale(d, rg, p, int(u), float(pr)) for d, rg, p, u, pr in r]

print(sales[0])
print(sales[0]._asdict())
print(Sale._fields)
big = sorted(sales, key=lambda s: s.units * s.unit_price, reverse=True)[:3]
for s in big:
    print(s.date, s.region, s.product, round(s.units * s.unit_price, 2))
fixed = sales[1]._replace(units=4)
print(fixed, fixed == sales[1])
Point = namedtuple("Point", ["x", "y", "z"], defaults=[0])
p = Point(1, 2)
print(p, p._field_defaults, Point._make([4, 5, 6]))
x, y, z = p
print(x + y + z, p[1], len(p), tuple(p), p.count(2))
print(isinstance(p, tuple), type(p).__name__)
