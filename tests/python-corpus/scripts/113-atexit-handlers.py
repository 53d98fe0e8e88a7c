"""atexit handlers run in reverse order at interpreter exit, after the main output."""
import atexit
import sys


def goodbye(name):
    print("goodbye from", name)


atexit.register(goodbye, "first")
atexit.register(goodbye, "second")
atexit.register(lambda: print("lambda handler"))
print("main body done")
sys.stdout.write("no newline yet")
print()
sys.exit(6)
