"""Layered settings with ChainMap: defaults < file < overrides."""
import configparser
import json
from collections import ChainMap

defaults = {"debug": False, "port": 80, "host": "localhost", "workers": 1, "log": "warn"}
with open("data/config.json") as f:
    file_cfg = {k: v for k, v in json.load(f).items() if not isinstance(v, (dict, list))}
with open("data/overrides.json") as f:
    overrides = {k: v for k, v in json.load(f).items() if not isinstance(v, (dict, list))}
env = {"log": "debug"}

settings = ChainMap(env, overrides, file_cfg, defaults)
for key in sorted(settings):
    source = next(i for i, m in enumerate(settings.maps) if key in m)
    print(f"{key:8} = {settings[key]!r:24} (from layer {source})")
child = settings.new_child({"port": 1234})
print(child["port"], settings["port"], len(child.maps))
child["host"] = "0.0.0.0"
print(child.maps[0], settings["host"])
print(sorted(child.parents.keys()) == sorted(settings.keys()))

cp = configparser.ConfigParser()
cp.read("config.ini")
for section in cp.sections():
    merged = ChainMap(dict(cp[section]), cp.defaults())
    print(section, sorted(merged.items()))
