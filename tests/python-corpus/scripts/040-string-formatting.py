"""Format specs: alignment, padding, thousands, percent, precision, %, str.format."""
rows = [("widget", 1234.5, 0.125), ("gadget", 98765.4321, 0.5), ("gizmo", 0.5, 1.0)]
print(f"{'name':<10}|{'amount':>12}|{'share':>7}")
print("-" * 31)
for name, amount, share in rows:
    print(f"{name:<10}|{amount:>12,.2f}|{share:>7.1%}")
print(f"{'centre':^20}|", f"{'x':*^9}", f"{42:08.3f}", f"{-42:+d}", f"{42:+d}", f"{42: d}")
print(f"{255:x} {255:X} {255:#x} {255:o} {255:#b} {255:_b} {1234567:_}")
print(f"{3.14159:.3} {3.14159:.3f} {1e-5:g} {1e20:g} {123456789:e} {0.000123:.2e}")
print(f"{1/3!r} {'q'!r} {'é'!a}")
width, prec = 12, 3
print(f"[{3.14159265:{width}.{prec}f}]")
print("{0}-{1}-{0}".format("a", "b"), "{name}:{n:03d}".format(name="id", n=7))
print("{:>8}|{:<8}|{:^8}".format("r", "l", "c"))
print("%s has %d items costing %.2f (%5.1f%%)" % ("cart", 3, 19.999, 42.25))
print("%(a)s/%(b)04d" % {"a": "x", "b": 9}, "%-6s|" % "ab", "%x %o %e" % (255, 8, 12345.678))
print(format(1234567.891, ",.1f"), format(0.5, "%"), format(12, "b"), format("abc", ">5"))
x = 10
print(f"{x=}", f"{x * 2 = }", f"{'nested ' + str(x)!s:>12}")
print(f"{1_000_000:,}".replace(",", "."), f"{-0.0:.1f}", f"{2.675:.2f}", round(2.675, 2), round(0.5), round(1.5))
print(str(1e16), str(1.0), str(123456789.123456789), repr(0.1 + 0.2), 1e-7, 100.0 ** 10)
