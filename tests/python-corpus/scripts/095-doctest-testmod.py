"""doctest on functions defined in the script, counting results only."""
import contextlib
import doctest
import io
import sys


def celsius(f):
    """Fahrenheit to Celsius.

    >>> celsius(212)
    100.0
    >>> celsius(32)
    0.0
    >>> round(celsius(100), 2)
    37.78
    """
    return (f - 32) * 5 / 9


def words(text):
    """
    >>> words("a b  c")
    ['a', 'b', 'c']
    >>> words("")
    []
    """
    return text.split()


def wrong():
    """
    >>> wrong()
    2
    """
    return 1


finder = doctest.DocTestFinder()
tests = sorted(finder.find(sys.modules[__name__]), key=lambda t: t.name)
print([(t.name.split(".")[-1], len(t.examples)) for t in tests if t.examples])
runner = doctest.DocTestRunner(verbose=False)
for t in tests:
    runner.run(t, out=lambda s: None)
with contextlib.redirect_stdout(io.StringIO()):
    failed, attempted = runner.summarize(verbose=False)
print("failed", failed, "attempted", attempted)
sys.exit(1 if failed else 0)
