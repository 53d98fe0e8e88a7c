"""Structural pattern matching on commands, JSON events and dataclasses."""
import json
from dataclasses import dataclass


@dataclass
class Point:
    x: int
    y: int


def handle(cmd):
    match cmd.split():
        case ["go", ("north" | "south" | "east" | "west") as direction]:
            return f"going {direction}"
        case ["pick", "up", *items] if items:
            return f"picking {', '.join(items)}"
        case ["quit" | "exit"]:
            return "bye"
        case [verb, *_]:
            return f"unknown verb {verb!r}"
        case []:
            return "empty"


for c in ["go north", "go up", "pick up key lamp", "pick up", "exit", "", "dance wildly"]:
    print(repr(c), "->", handle(c))


def describe(event):
    match event:
        case {"action": "login", "user": str(user)}:
            return f"{user} logged in"
        case {"action": "search", "query": q, **rest}:
            return f"search {q!r} ({len(rest)} other keys)"
        case {"action": "export" | "audit" as a, "ms": int(ms)} if ms > 1000:
            return f"slow {a} {ms}ms"
        case {"action": a}:
            return f"other {a}"


with open("data/events.jsonl") as f:
    for line in list(f)[:9]:
        print(describe(json.loads(line)))


def where(p):
    match p:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0, y=y):
            return f"on y axis at {y}"
        case Point(x, y) if x == y:
            return "diagonal"
        case Point():
            return "somewhere"
        case (a, b):
            return f"tuple {a},{b}"
        case _:
            return "not a point"


Point.__match_args__ = ("x", "y")
print([where(p) for p in [Point(0, 0), Point(0, 5), Point(2, 2), Point(1, 3), (1, 2), "x"]])
for value in [3, 3.0, "3", None, [1, 2], {"k": 1}, True]:
    match value:
        case bool():
            kind = "bool"
        case int():
            kind = "int"
        case float():
            kind = "float"
        case str():
            kind = "str"
        case None:
            kind = "none"
        case [_, _]:
            kind = "pair"
        case _:
            kind = "other"
    print(repr(value), kind)
