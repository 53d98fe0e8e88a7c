"""Atomic file updates: write a temp file next to the target, then os.replace it over the target."""
import json
import os
import tempfile


def atomic_write_json(path, data):
    directory = os.path.dirname(path) or "."
    with tempfile.NamedTemporaryFile("w", dir=directory, prefix=".tmp-", suffix=".json", delete=False) as tmp:
        json.dump(data, tmp, indent=2, sort_keys=True)
        tmp.write("\n")
        tmp.flush()
        os.fsync(tmp.fileno())
    os.replace(tmp.name, path)


config = json.load(open("data/config.json"))
config["version"] = "1.5.0"
atomic_write_json("data/config.json", config)
print(json.load(open("data/config.json"))["version"])
config["port"] += 1
atomic_write_json("data/config.json", config)
print(json.load(open("data/config.json"))["port"], open("data/config.json").read().count("\n"))
print(sorted(f for f in os.listdir("data") if f.startswith(".tmp")))
