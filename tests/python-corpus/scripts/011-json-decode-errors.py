"""Locating JSON syntax errors: position, line and column."""
import json

bad = [
    '{"a": 1, "b": }',
    '[1, 2, 3',
    '{"a": 1}\n{"b": 2}',
    '',
    '{"key" 1}',
    'nul',
]
for text in bad:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        print(f"pos={e.pos} line={e.lineno} col={e.colno} isValueError={isinstance(e, ValueError)}")

ok = json.loads('{"a": [1, 2, {"b": null}], "c": "\\u00e9\\n"}')
print(ok)
print(json.loads("1e400"), json.loads("-0"), json.loads('"\\ud83d\\udc0d"'))
dec = json.JSONDecoder()
obj, end = dec.raw_decode('{"x": 1} trailing')
print(obj, end)
