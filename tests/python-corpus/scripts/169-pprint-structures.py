"""pprint of nested data with width/depth/sort settings."""
import json
import pprint

config = json.load(open("data/config.json"))
pprint.pprint(config)
pprint.pprint(config, width=40, sort_dicts=False)
pprint.pprint(config, depth=1)
users = json.load(open("data/users.json"))
pprint.pprint([{k: u[k] for k in ("id", "name", "roles")} for u in users[:3]], width=60)
print(pprint.pformat(list(range(30)), width=40, compact=True))
print(pprint.pformat({"z": 1, "a": {"y": [1, 2], "b": (3, 4)}}, indent=2, width=20))
print(pprint.isreadable({"a": 1}), pprint.isrecursive([1]), pprint.saferepr("x" * 5))
long = {"key" + str(i): "value " * 3 for i in range(3)}
pprint.pprint(long, width=50)
