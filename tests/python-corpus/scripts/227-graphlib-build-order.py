"""graphlib.TopologicalSorter: a build order for modules from their imports."""
import ast
import os
from graphlib import CycleError, TopologicalSorter

deps = {}
for name in sorted(os.listdir("project/src/app")):
    if name.endswith(".py"):
        tree = ast.parse(open(os.path.join("project/src/app", name)).read())
        mod = name[:-3]
        deps[mod] = sorted({n.module.split(".")[-1] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("app")})
print(deps)
print(list(TopologicalSorter(deps).static_order()))
ts = TopologicalSorter({"deploy": ["test", "build"], "test": ["build"], "build": ["fetch"], "lint": ["fetch"]})
ts.prepare()
rounds = []
while ts.is_active():
    ready = sorted(ts.get_ready())
    rounds.append(ready)
    ts.done(*ready)
print(rounds)
try:
    list(TopologicalSorter({"a": ["b"], "b": ["a"]}).static_order())
except CycleError as e:
    print("CycleError", sorted(set(e.args[1])))
