"""bytes, bytearray, array and memoryview: slicing, mutation, conversion."""
import array

b = b"hello world"
print(b[0], b[:5], b.upper(), b.split(), b.replace(b"o", b"0"), b.hex(), b.count(b"l"), b.find(b"wor"))
ba = bytearray(b"hello")
ba[0] = ord("J")
ba.extend(b"!!")
ba += b"?"
del ba[-1]
print(ba, len(ba), ba.decode(), bytes(ba[1:3]), ba.pop(), ba)
print(bytes(3), bytes([65, 66]), bytes.fromhex("4142"), b"ab" * 2, b"a" in b"cat", b"%d-%s" % (5, b"x"))
a = array.array("i", [1, 2, 3, 4])
a.append(5)
a.extend([6, 7])
print(a.tolist(), a.itemsize, a.typecode, sum(a), a[2:4].tolist(), a.index(4))
f = array.array("d", [1.5, 2.5])
print(f.tobytes().hex(), array.array("d", f.tobytes()).tolist())
with open("ints.bin", "wb") as fh:
    array.array("H", range(10)).tofile(fh)
back = array.array("H")
with open("ints.bin", "rb") as fh:
    back.fromfile(fh, 10)
print(back.tolist(), len(open("ints.bin", "rb").read()))
mv = memoryview(bytearray(b"abcdef"))
mv[0:2] = b"XY"
print(mv.tobytes(), mv[2:4].tobytes(), mv.nbytes, mv.readonly, mv.obj)
m2 = memoryview(array.array("i", [10, 20, 30]))
print(m2.format, m2.itemsize, m2.tolist(), m2.cast("B").nbytes)
print(bytearray(b"abc").swapcase(), b"  x ".strip(), b"a,b".split(b","), b"abc".startswith(b"ab"), b"x".isalpha(), b"AbC".lower())
