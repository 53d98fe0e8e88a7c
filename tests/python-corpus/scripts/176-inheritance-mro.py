"""Inheritance: super() chains, MRO with mixins, abstract base classes."""
from abc import ABC, abstractmethod


class Base:
    def __init__(self):
        self.log = ["Base"]

    def describe(self):
        return "base"


class JsonMixin:
    def describe(self):
        return "json+" + super().describe()

    def to_json(self):
        import json
        return json.dumps(vars(self), sort_keys=True)


class LogMixin:
    def describe(self):
        return "log+" + super().describe()


class Model(JsonMixin, LogMixin, Base):
    def __init__(self, name):
        super().__init__()
        self.name = name
        self.log.append("Model")


m = Model("item")
print([c.__name__ for c in Model.__mro__])
print(m.describe(), m.to_json(), m.log)
print(isinstance(m, LogMixin), issubclass(Model, Base), Model.__bases__[0].__name__)


class Exporter(ABC):
    @abstractmethod
    def export(self, rows): ...

    def run(self, rows):
        return f"[{type(self).__name__}] " + self.export(rows)


class CsvExporter(Exporter):
    def export(self, rows):
        return "\n".join(",".join(map(str, r)) for r in rows)


class Broken(Exporter):
    pass


print(CsvExporter().run([(1, 2), (3, 4)]))
try:
    Broken()
except TypeError:
    print("TypeError: abstract class")
print(sorted(Exporter.__abstractmethods__), Broken.__abstractmethods__ == frozenset({"export"}))


class Shape:
    registry = []

    def __init_subclass__(cls, kind=None, **kw):
        super().__init_subclass__(**kw)
        Shape.registry.append((cls.__name__, kind))


class Circle(Shape, kind="round"):
    pass


class Square(Shape, kind="angular"):
    pass


print(Shape.registry)
