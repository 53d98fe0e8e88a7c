"""What survives a JSON round trip, and what changes."""
import json

values = [
    {"int": 1, "float": 2.5, "str": "x", "none": None, "bool": True},
    (1, 2, 3),
    {1: "int key", 2.5: "float key", None: "none key", True: "bool key"},
    "ünïcödé",
    [[], {}, ""],
    12345678901234567890123,
]
for v in values:
    text = json.dumps(v)
    back = json.loads(text)
    print(f"{text} -> {back!r} same={back == v}")
print(json.dumps("ünïcödé", ensure_ascii=False))
print(json.dumps({"b": 1, "a": [1, 2]}, indent=0))
print(json.dumps({"c": 3, "a": 1, "b": 2}, sort_keys=True, indent=1, separators=(",", ": ")))
print(json.loads('[1, 2.0, 3]', parse_float=str, parse_int=lambda s: int(s) * 10))
print(json.loads('{"a": 1, "a": 2}'))
pairs = json.loads('{"z": 1, "y": 2, "z": 3}', object_pairs_hook=list)
print(pairs)
