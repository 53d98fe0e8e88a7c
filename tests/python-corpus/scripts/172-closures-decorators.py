"""Closures and decorators: counters, retry with attempts, memoize, decorator factories."""
import functools


def make_counter(start=0):
    count = start

    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc


c = make_counter(10)
print(c(), c(), c(5), c.__closure__[0].cell_contents)


def retry(times, exceptions=(Exception,)):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a, **kw):
            for attempt in range(1, times + 1):
                try:
                    return fn(*a, **kw), attempt
                except exceptions as e:
                    print(f"  attempt {attempt} failed: {e}")
            raise RuntimeError(f"{fn.__name__} failed {times} times")
        return wrapper
    return deco


calls = {"n": 0}


@retry(3, (ConnectionError,))
def flaky():
    calls["n"] += 1
    if calls["n"] < 3:
        raise ConnectionError(f"timeout #{calls['n']}")
    return "ok"


print(flaky())


@retry(2)
def always_fails():
    raise ValueError("nope")


try:
    always_fails()
except RuntimeError as e:
    print(e)


def timed_log(prefix):
    def deco(fn):
        def inner(*args):
            result = fn(*args)
            print(f"{prefix} {fn.__name__}{args} = {result}")
            return result
        return inner
    return deco


@timed_log("[calc]")
@timed_log("[inner]")
def mul(a, b):
    return a * b


mul(3, 4)
adders = [lambda x, i=i: x + i for i in range(3)]
late = [lambda x: x + i for i in range(3)]
print([f(10) for f in adders], [f(10) for f in late])
