"""dataclasses: defaults, field(), ordering, frozen, asdict/astuple/replace, __post_init__."""
from dataclasses import FrozenInstanceError, asdict, astuple, dataclass, field, fields, replace


@dataclass(order=True)
class Part:
    sort_key: tuple = field(init=False, repr=False)
    sku: str
    name: str
    qty: int = 0
    price: float = 0.0
    tags: list = field(default_factory=list, compare=False)

    def __post_init__(self):
        self.sort_key = (self.sku[0], -self.qty)

    @property
    def value(self):
        return round(self.qty * self.price, 2)


@dataclass(frozen=True)
class Location:
    aisle: int
    shelf: str = "A"


parts = [Part("B-200", "Wood screw", 800, 0.05, ["wood"]), Part("A-100", "Bolt", 1200, 0.12), Part("A-101", "Nut", 1500, 0.08, ["m6"])]
for p in sorted(parts):
    print(p, p.value)
print(asdict(parts[0]))
print(astuple(parts[1]))
print([f.name for f in fields(Part)], [f.name for f in fields(Part) if f.init])
cheaper = replace(parts[1], price=0.10)
print(cheaper.value, cheaper == parts[1], cheaper.tags is parts[1].tags)
loc = Location(3)
print(loc, hash(loc) == hash(Location(3, "A")), {loc: "x"}[Location(3)])
try:
    loc.aisle = 4
except FrozenInstanceError:
    print("FrozenInstanceError")
print(Part("C-1", "x") == Part("C-1", "x", tags=["different"]))


@dataclass(kw_only=True, slots=True)
class Config:
    host: str = "localhost"
    port: int = 8080


c = Config(port=9000)
print(c, hasattr(c, "__dict__"), Config.__slots__)
