"""int and float internals: bit_length, to/from bytes, float.hex, as_integer_ratio, big ints."""
n = 2024
print(n.bit_length(), n.bit_count(), bin(n), oct(n), hex(n), n.to_bytes(2, "big"), int.from_bytes(b"\x07\xe8", "big"))
print((255).to_bytes(2, "little"), int.from_bytes(b"\xff\xff", "big", signed=True), (-5).bit_length())
print(0.1.hex(), float.fromhex("0x1.8p1"), (0.75).as_integer_ratio(), 3.0.is_integer(), 3.5.is_integer())
print(divmod(17, 5), divmod(-17, 5), divmod(17.5, 5), 17 // -5, 17 % -5, -17 // 5)
print(7 / 2, 7 // 2, -7 / 2, 2 ** -1, 2 ** 0.5, 10 ** 20, 10.0 ** 20, 1e300 * 1e10, -1e300 * 1e10)
big = 3 ** 200
print(len(str(big)), str(big)[:20], big % 1000007, big.bit_length())
print(round(1234.5678, -2), round(1234.5678, 1), round(-0.5), round(1.25, 1), round(1.35, 1), round(2.5), round(3.5))
print(float("nan") == float("nan"), float("inf") - float("inf"), 0.0 == -0.0, str(-0.0), 1 / 3, 2 / 3, 100 / 7)
print(int(1e20), int(-1e20), float(2 ** 53 + 1), 2 ** 53 + 1, 0.1 * 3, 1.1 + 2.2, 3.3 * 3)
print(sum([1, 2, 3], 10), abs(-7), abs(-7.5), abs(3 + 4j), complex(1, 2) * complex(3, -1), (1 + 2j).conjugate())
print(max(1, 2.5, 2), min([3, 1.0, 2]), pow(2, 10), pow(2.0, 10), 5 == 5.0, hash(5) == hash(5.0), True + True)
print(f"{12345.6789:.2e} {0.000012345:.3g} {123456789012:,} {1e-10!r} {1e16!r} {123456789.0!r}")
