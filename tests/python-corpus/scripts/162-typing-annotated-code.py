"""Typed code: TypedDict, Protocol, generics, Literal, overload; behaviour, not reprs."""
from __future__ import annotations

from typing import Callable, Generic, Iterable, Literal, NamedTuple, Protocol, TypedDict, TypeVar, get_type_hints

T = TypeVar("T")
K = TypeVar("K")


class UserDict(TypedDict, total=False):
    id: int
    name: str
    email: str


class Sized(Protocol):
    def size(self) -> int: ...


class Box(Generic[T]):
    def __init__(self, items: Iterable[T]) -> None:
        self.items: list[T] = list(items)

    def map(self, fn: Callable[[T], K]) -> Box[K]:
        return Box(fn(i) for i in self.items)

    def size(self) -> int:
        return len(self.items)


class Point(NamedTuple):
    x: float
    y: float = 0.0


def total_size(things: Iterable[Sized]) -> int:
    return sum(t.size() for t in things)


def level(n: int) -> Literal["low", "high"]:
    return "low" if n < 5 else "high"


def first(items: list[T], default: T | None = None) -> T | None:
    return items[0] if items else default


u: UserDict = {"id": 1, "name": "ada"}
print(u, sorted(UserDict.__annotations__), UserDict.__total__)
b = Box([1, 2, 3]).map(lambda n: n * 1.5).map(str)
print(b.items, total_size([b, Box("abcd")]))
print(Point(1.5), Point._fields, level(3), level(9), first([], "none"), first(["x"]))
hints = get_type_hints(first)
print(sorted(hints), first.__annotations__["return"])
print(isinstance(b, Box), Box.__parameters__[0].__name__)
