"""__slots__, descriptors for validation, __getattr__ fallbacks, __setattr__ guards."""


class Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f"{self.name[1:]} must be positive, got {value}")
        setattr(obj, self.name, value)


class Product:
    price = Positive()
    qty = Positive()

    def __init__(self, name, price, qty):
        self.name, self.price, self.qty = name, price, qty


p = Product("bolt", 0.12, 100)
print(p.price, p.qty, vars(p))
for field, value in [("price", -1), ("qty", 0)]:
    try:
        setattr(p, field, value)
    except ValueError as e:
        print("ValueError:", e)


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y


pt = Point(1, 2)
try:
    pt.z = 3
except AttributeError:
    print("AttributeError: no slot z")
print(hasattr(pt, "__dict__"), Point.__slots__)


class Record:
    def __init__(self, **fields):
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name):
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        raise TypeError("Record is read-only")


r = Record(sku="A-100", qty=3)
print(r.sku, r.qty, getattr(r, "missing", "default"))
try:
    r.qty = 4
except TypeError as e:
    print("TypeError:", e)
print(type(Product.__dict__["price"]).__name__, Product.price.name)
