"""inspect: signatures, source lines and members of the fixture package and this script."""
import inspect

import mypkg
from mypkg import models, util


def handler(path: str, *, retries: int = 3, verbose=False, **extra) -> bool:
    """Handle one path."""
    return True


sig = inspect.signature(handler)
print([(p.name, p.kind.name, p.default is inspect.Parameter.empty) for p in sig.parameters.values()])
print(sig.parameters["retries"].default, sig.return_annotation is bool, inspect.getdoc(handler))
print(inspect.getsource(util.chunks).splitlines()[0])
print(inspect.getsourcelines(handler)[1], len(inspect.getsourcelines(handler)[0]))
print(sorted(n for n, _ in inspect.getmembers(util, inspect.isfunction)))
print(sorted(n for n, _ in inspect.getmembers(models, inspect.isclass) if _.__module__ == "mypkg.models"))
print(inspect.ismodule(mypkg), inspect.isclass(models.Item), inspect.isfunction(handler), inspect.ismethod(handler))
print(inspect.getmodule(models.Item).__name__, inspect.getfile(util).endswith("util.py"))
b = sig.bind("x", retries=5, color="red")
b.apply_defaults()
print(dict(b.arguments))
frame = inspect.currentframe()
print(frame.f_code.co_name, frame.f_lineno > 0, inspect.stack()[0].function)
