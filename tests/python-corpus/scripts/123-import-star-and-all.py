"""from package import *, __all__, and module attributes."""
from mypkg import *  # noqa: F403
import mypkg

print(sorted(k for k in dir() if not k.startswith("_") and k != "mypkg"))
print(VERSION, slugify("A B"))  # noqa: F405
print(mypkg.__all__)
print("LOADED" in dir(), hasattr(mypkg, "LOADED"))
print(sorted(n for n in vars(mypkg) if not n.startswith("__")))
import tools.settings as settings

print(settings.DEBUG, settings.RETRIES, settings.__name__)
