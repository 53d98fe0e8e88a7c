"""partial, reduce, singledispatch, total_ordering, wraps."""
import functools
import operator
from decimal import Decimal

print(functools.reduce(operator.add, range(1, 11)))
print(functools.reduce(lambda acc, w: acc + len(w), ["ab", "cde", "f"], 0))
print(functools.reduce(operator.mul, [Decimal("1.1")] * 3))
int2 = functools.partial(int, base=2)
print(int2("101101"), int2.func is int, int2.keywords)
round2 = functools.partial(round, ndigits=2)
print(list(map(round2, [3.14159, 2.71828, 1.41421])))


@functools.singledispatch
def render(value):
    return f"<{type(value).__name__}>"


@render.register
def _(value: int):
    return f"int:{value}"


@render.register
def _(value: list):
    return "[" + ", ".join(render(v) for v in value) + "]"


@render.register(str)
def _(value):
    return repr(value)


print(render([1, "a", 2.5, [True, None]]))


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __repr__(self):
        return "v" + ".".join(map(str, self.parts))


vs = [Version(v) for v in ["1.10.0", "1.2.3", "1.2.10", "0.9", "1.2.3"]]
print(sorted(vs), max(vs), Version("1.2") >= Version("1.1.9"), Version("2.0") <= Version("1.9"))


def logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        print("call", fn.__name__, args, kwargs)
        return fn(*args, **kwargs)
    return inner


@logged
def area(w, h=1):
    """Area of a rectangle."""
    return w * h


print(area(3, h=4), area.__name__, area.__doc__)
