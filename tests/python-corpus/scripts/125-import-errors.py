"""Handling failed imports: a missing module, a missing name, optional dependencies."""
import sys

try:
    import definitely_not_installed  # noqa: F401
except ImportError as e:
    print(type(e).__name__, e.name)
try:
    from mypkg import nothing_here  # noqa: F401
except ImportError as e:
    print(type(e).__name__, e.name)
try:
    import fancy_optional_dependency  # noqa: F401
    have_fancy = True
except ModuleNotFoundError:
    have_fancy = False
print("fancy:", have_fancy)
with open("broken_mod.py", "w") as f:
    f.write("x = 1\nraise RuntimeError('broken at import')\n")
try:
    import broken_mod  # noqa: F401
except RuntimeError as e:
    print("RuntimeError:", e, "broken_mod" in sys.modules)
with open("bad_syntax.py", "w") as f:
    f.write("def f(:\n    pass\n")
try:
    import bad_syntax  # noqa: F401
except SyntaxError as e:
    print("SyntaxError at line", e.lineno, e.filename.endswith("bad_syntax.py"))
