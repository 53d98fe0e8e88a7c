"""Importing the fixture's package from the script directory (sys.path[0])."""
import os
import sys
from decimal import Decimal

import mypkg
from mypkg import Item, Order, chunks, slugify
from mypkg.util import percent

print(os.path.basename(sys.path[0]) == os.path.basename(os.getcwd()))
print(mypkg.VERSION, mypkg.__name__, mypkg.__doc__)
print(slugify("Hello, World! Ünïcode"), chunks(list(range(7)), 3), percent(1, 3), percent(2, 3, 3))
order = Order(1001).add(Item("Steel bolt", Decimal("0.12"), 100)).add(Item("Hinge", Decimal("3.40"), 2))
print(order.total, [i.slug for i in order.items])
print(order)
try:
    chunks([1], 0)
except ValueError as e:
    print("ValueError:", e)
try:
    order.items[0].qty = 5
except AttributeError as e:
    print("frozen:", type(e).__name__)
print(sorted(m for m in sys.modules if m.startswith("mypkg")))
print(os.path.relpath(mypkg.__file__), os.path.relpath(mypkg.util.__file__))
