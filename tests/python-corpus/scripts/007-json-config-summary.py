"""Load a JSON config and print a flattened view of it."""
import json

with open("data/config.json") as f:
    config = json.load(f)


def flatten(value, prefix=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flatten(v, f"{prefix}{k}.")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from flatten(v, f"{prefix}{i}.")
    else:
        yield prefix.rstrip("."), value


for key, value in flatten(config):
    print(f"{key} = {json.dumps(value)}")
print("types:", sorted({type(v).__name__ for _, v in flatten(config)}))
print("owners:", [o["email"].split("@")[1] for o in config["owners"]])
