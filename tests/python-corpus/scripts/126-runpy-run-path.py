"""runpy: running another file and module, inspecting their globals."""
import runpy

g = runpy.run_path("tools/gen.py")
print(g["TOTAL"], sorted(g["TABLE"].items()))
g = runpy.run_path("tools/gen.py", run_name="__main__")
print(g["__name__"])
g = runpy.run_module("mypkg.util")
print(g["slugify"]("Run Module"), g["__name__"])
g = runpy.run_path("tools/settings.py", init_globals={"PRESET": 1})
print(g["PRESET"], g["RETRIES"])
