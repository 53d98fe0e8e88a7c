"""base64 variants and binascii hex round trips."""
import base64
import binascii

data = open("project/assets/logo.png", "rb").read()
b64 = base64.b64encode(data)
print(b64.decode(), base64.b64decode(b64) == data)
print(base64.urlsafe_b64encode(b"\xfb\xff\xfe"), base64.b64encode(b"\xfb\xff\xfe"))
print(base64.b32encode(b"corpus"), base64.b16encode(b"corpus"), base64.a85encode(b"corpus"), base64.b85encode(b"corpus"))
print(base64.b64decode("aGVsbG8gd29ybGQ="), base64.b64decode("aGVsbG8gd29ybGQ", validate=False) if False else "skip")
print(base64.standard_b64encode("ünï".encode()).decode(), base64.encodebytes(b"x" * 60).count(b"\n"))
try:
    base64.b64decode("abc$", validate=True)
except binascii.Error:
    print("binascii.Error on invalid input")
print(binascii.hexlify(b"\x00\xffab"), binascii.hexlify(b"\x00\xffab", "-"), binascii.unhexlify("deadbeef"), bytes.fromhex("de ad be ef"))
print(binascii.b2a_base64(b"hi"), binascii.a2b_base64(b"aGk=\n"), binascii.b2a_hex(b"\x01\x02", b":", 1))
token = base64.urlsafe_b64encode(b"user:ada|exp:2024-12-31").rstrip(b"=")
padded = token + b"=" * (-len(token) % 4)
print(token.decode(), base64.urlsafe_b64decode(padded).decode())
with open("logo.b64", "wb") as f:
    f.write(base64.encodebytes(data))
print(base64.decodebytes(open("logo.b64", "rb").read()) == data)
