"""zlib: checksums, streaming compression objects, and round trips."""
import binascii
import zlib

data = open("data/sales.csv", "rb").read()
print(hex(zlib.crc32(data)), hex(zlib.adler32(data)), binascii.crc32(data) == zlib.crc32(data))
crc = 0
for i in range(0, len(data), 100):
    crc = zlib.crc32(data[i:i + 100], crc)
print("incremental crc ok:", crc == zlib.crc32(data))
for level in (0, 1, 6, 9):
    c = zlib.compress(data, level)
    print(level, zlib.decompress(c) == data, len(c) < len(data) or level == 0)
co = zlib.compressobj(wbits=-15)
raw = co.compress(data) + co.flush()
print("raw deflate ok:", zlib.decompress(raw, wbits=-15) == data)
do = zlib.decompressobj()
stream = zlib.compress(data * 10)
out = b"".join(do.decompress(stream[i:i + 64]) for i in range(0, len(stream), 64)) + do.flush()
print("streamed:", len(out), out == data * 10, do.eof)
try:
    zlib.decompress(b"garbage")
except zlib.error:
    print("zlib.error")
print(zlib.crc32(b""), zlib.adler32(b""), zlib.crc32(b"hello world"), binascii.crc_hqx(b"hello", 0))
