"""contextlib: contextmanager, suppress, ExitStack, closing, nullcontext, chdir."""
import contextlib
import io
import os

log = []


@contextlib.contextmanager
def step(name):
    log.append(f"enter {name}")
    try:
        yield name.upper()
    except ValueError as e:
        log.append(f"handled {e}")
    finally:
        log.append(f"exit {name}")


with step("a") as v:
    log.append(f"body {v}")
with step("b"):
    raise ValueError("oops")
print(log)
with contextlib.suppress(FileNotFoundError):
    os.remove("nope.txt")
    print("not printed")
print("suppressed")
with contextlib.ExitStack() as stack:
    files = [stack.enter_context(open(p)) for p in ["data/numbers.txt", "docs/readme.md"]]
    stack.callback(print, "callback at exit")
    print([f.readline().strip() for f in files])
print(all(f.closed for f in files))


class Resource:
    def close(self):
        print("closed resource")


with contextlib.closing(Resource()):
    print("using resource")
with contextlib.nullcontext(42) as n:
    print("null", n)
with contextlib.chdir("docs"):
    print(sorted(os.listdir("."))[:2])
print(os.path.exists("docs"))
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print("hidden")
print(repr(buf.getvalue()))
