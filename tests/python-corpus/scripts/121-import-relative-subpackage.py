"""Relative imports inside a subpackage (from .. import, from ..models import)."""
from decimal import Decimal

from mypkg import sub
from mypkg.models import Item
from mypkg.sub import tools
from mypkg.sub.tools import cheapest, describe, version_string

print(sub.NAME, sub.label("Hello There"), version_string())
items = [Item("washer", Decimal("0.015"), 10), Item("bolt", Decimal("0.12")), Item("nut", Decimal("0.015"), 3)]
print(describe(cheapest(items)))
print(tools.__name__, tools.__package__, sub.__package__, sub.tools is tools)
print(Item.__module__, cheapest.__module__)
import mypkg.sub.tools as t2

print(t2 is tools, t2.Item is Item)
