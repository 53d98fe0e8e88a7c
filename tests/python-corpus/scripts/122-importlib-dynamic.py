"""importlib: import by name, module specs, resources, reload of an edited module."""
import importlib
import importlib.resources
import importlib.util
import os

names = ["mypkg.util", "mypkg.sub.tools", "json", "csv"]
for name in names:
    mod = importlib.import_module(name)
    print(name, mod.__name__, hasattr(mod, "__file__"))
print(importlib.util.find_spec("mypkg").submodule_search_locations is not None, importlib.util.find_spec("no_such_mod"))
text = importlib.resources.files("mypkg").joinpath("data.txt").read_text()
print(dict(line.split("=") for line in text.split()))
print(sorted(p.name for p in importlib.resources.files("mypkg").iterdir() if not p.name.startswith("__")))
spec = importlib.util.spec_from_file_location("gen_mod", os.path.join("tools", "gen.py"))
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
print(mod.TABLE, mod.TOTAL)
with open("dyn_config.py", "w") as f:
    f.write("LEVEL = 1\n")
import dyn_config

print(dyn_config.LEVEL)
with open("dyn_config.py", "w") as f:
    f.write("LEVEL = 2\nEXTRA = 'added'\n")
importlib.invalidate_caches()
st = os.stat("dyn_config.py")
os.utime("dyn_config.py", (st.st_atime, st.st_mtime + 10))
dyn_config = importlib.reload(dyn_config)
print(dyn_config.LEVEL, dyn_config.EXTRA)
