"""__name__ == '__main__', __file__, sys.argv for the script itself."""
import os
import sys

print(__name__, os.path.basename(__file__), [os.path.basename(a) for a in sys.argv])
print(os.path.dirname(os.path.abspath(__file__)) == os.getcwd())
here = os.path.dirname(os.path.abspath(__file__))
print(sorted(os.listdir(os.path.join(here, "mypkg")))[:3])
print(type(__builtins__).__name__ in ("module", "dict"), __package__, __spec__ is None)
if __name__ == "__main__":
    print("running as a script")
