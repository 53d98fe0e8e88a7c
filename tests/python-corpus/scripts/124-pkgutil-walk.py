"""pkgutil: discovering the modules of a package."""
import pkgutil

import mypkg

mods = sorted((m.name, m.ispkg) for m in pkgutil.iter_modules(mypkg.__path__))
print(mods)
walked = sorted(m.name for m in pkgutil.walk_packages(mypkg.__path__, prefix="mypkg."))
print(walked)
print(pkgutil.get_data("mypkg", "data.txt").decode().splitlines())
print(pkgutil.resolve_name("mypkg.sub.tools:version_string")())
print(pkgutil.resolve_name("mypkg.util.slugify")("X Y"))
