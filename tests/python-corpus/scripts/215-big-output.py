"""A lot of stdout (about 600 KB) with print and sys.stdout.write interleaved."""
import sys

for i in range(20000):
    if i % 3:
        print(f"line {i:05d} " + "x" * (i % 17))
    else:
        sys.stdout.write(f"write {i:05d}\n")
print("end")
