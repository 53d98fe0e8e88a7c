"""Exit paths: finally blocks run on sys.exit, and cleanup writes a file."""
import sys

state = {"done": 0}
try:
    for i in range(5):
        state["done"] += 1
        if i == 2:
            print("stopping at", i)
            sys.exit(9)
finally:
    with open("state.txt", "w") as f:
        f.write(f"done={state['done']}\n")
    print("finally wrote state")
