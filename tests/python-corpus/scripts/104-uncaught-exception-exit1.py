"""An uncaught exception after some output: exit status 1, traceback on stderr."""
import json

data = json.load(open("data/config.json"))
print("service:", data["name"])
print("port:", data["port"])


def get_replicas(cfg):
    return cfg["deploy"]["replicas"]


print("replicas:", get_replicas(data))
print("not reached")
