"""struct: packing fixed-width binary records into a file and reading them back."""
import struct

RECORD = struct.Struct("<8sIhd?")
items = [(b"A-100", 1200, -3, 0.12, True), (b"B-200", 800, 7, 0.05, False), (b"D-400", 75, 0, 3.4, True)]
with open("parts.bin", "wb") as f:
    f.write(struct.pack("<4sHI", b"PRTS", 1, len(items)))
    for sku, qty, delta, price, active in items:
        f.write(RECORD.pack(sku, qty, delta, price, active))
raw = open("parts.bin", "rb").read()
print(len(raw), RECORD.size, raw[:10].hex())
magic, version, count = struct.unpack_from("<4sHI", raw)
print(magic, version, count)
for sku, qty, delta, price, active in RECORD.iter_unpack(raw[10:]):
    print(sku.rstrip(b"\0").decode(), qty, delta, price, active)
print(struct.calcsize("i"), struct.calcsize("<i"), struct.calcsize("@ib"), struct.calcsize("<ib"), struct.calcsize("q"))
print(struct.pack(">H", 258), struct.pack("<H", 258), struct.pack("!f", 1.5).hex(), struct.unpack(">d", bytes.fromhex("400921fb54442d18"))[0])
try:
    struct.pack("<B", 256)
except struct.error:
    print("struct.error for out-of-range")
buf = bytearray(8)
struct.pack_into("<HH", buf, 2, 1, 65535)
print(buf, int.from_bytes(b"\x01\x00", "little"), (1024).to_bytes(4, "big"), (-1).to_bytes(2, "big", signed=True))
