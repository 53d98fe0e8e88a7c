"""json with a custom default= and object_hook for dates, decimals, sets, dataclasses."""
import json
from dataclasses import asdict, dataclass, is_dataclass
from datetime import date, datetime, timezone
from decimal import Decimal


@dataclass
class Shipment:
    id: int
    shipped: date
    weight: Decimal
    tags: set


def default(o):
    if isinstance(o, datetime):
        return {"__datetime__": o.isoformat()}
    if isinstance(o, date):
        return {"__date__": o.isoformat()}
    if isinstance(o, Decimal):
        return {"__decimal__": str(o)}
    if isinstance(o, set):
        return sorted(o)
    if is_dataclass(o):
        return asdict(o)
    raise TypeError(f"cannot encode {type(o).__name__}")


def hook(d):
    if "__date__" in d:
        return date.fromisoformat(d["__date__"])
    if "__datetime__" in d:
        return datetime.fromisoformat(d["__datetime__"])
    if "__decimal__" in d:
        return Decimal(d["__decimal__"])
    return d


s = [Shipment(1, date(2024, 2, 29), Decimal("12.50"), {"fragile", "express"}),
     Shipment(2, date(2023, 12, 31), Decimal("0.75"), set())]
doc = {"shipments": s, "generated": datetime(2024, 3, 1, 12, 30, tzinfo=timezone.utc)}
text = json.dumps(doc, default=default, sort_keys=True)
print(text)
back = json.loads(text, object_hook=hook)
print(back["generated"].isoformat(), back["generated"].tzinfo is not None)
for sh in back["shipments"]:
    print(sh["id"], sh["shipped"].strftime("%d %b %Y"), sh["weight"] * 2, sh["tags"])
try:
    json.dumps({"x": object()}, default=default)
except TypeError as e:
    print("TypeError:", e)


class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, complex):
            return [o.real, o.imag]
        return super().default(o)


print(Enc().encode({"z": 1 + 2j}))
print(json.dumps([1.0, 1e20, 1.5e-7, 3.141592653589793, 10**20, -0.0]))
print(json.dumps({"nan": float("nan"), "inf": float("inf")}))
