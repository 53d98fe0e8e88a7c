"""Text encodings on disk: utf-8, utf-8-sig, latin-1, utf-16, errors= handlers."""
import codecs
import os

text = "Crème brûlée – 5€\n"
for enc in ["utf-8", "utf-8-sig", "latin-1", "cp1252", "utf-16-le", "utf-16"]:
    name = f"enc-{enc}.txt"
    try:
        with open(name, "w", encoding=enc) as f:
            f.write(text)
    except UnicodeEncodeError as e:
        print(enc, "cannot encode", repr(e.object[e.start:e.end]))
        with open(name, "w", encoding=enc, errors="replace") as f:
            f.write(text)
    data = open(name, "rb").read()
    print(f"{enc:10} {len(data):3} {data[:6].hex()}")
print(repr(open("enc-utf-8.txt", encoding="latin-1").read()))
print(repr(open("enc-latin-1.txt", encoding="utf-8", errors="replace").read()))
print(repr(open("enc-latin-1.txt", encoding="utf-8", errors="ignore").read()))
print(repr(open("enc-latin-1.txt", encoding="utf-8", errors="backslashreplace").read()))
print(open("enc-utf-8-sig.txt", "rb").read()[:3] == codecs.BOM_UTF8, repr(open("enc-utf-8-sig.txt", encoding="utf-8-sig").read()[:5]))
try:
    open("enc-cp1252.txt", encoding="utf-8").read()
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e.encoding, e.start, hex(e.object[e.start]))
print("é".encode("ascii", "xmlcharrefreplace"), "é".encode("ascii", "namereplace"), b"caf\xe9".decode("latin-1"))
print(sorted(f for f in os.listdir(".") if f.startswith("enc-")))
