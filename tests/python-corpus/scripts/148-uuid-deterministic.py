"""uuid: name-based UUIDs (deterministic), parsing and formatting."""
import uuid

for name in ["example.com", "python.org", "corpus"]:
    print(name, uuid.uuid5(uuid.NAMESPACE_DNS, name), uuid.uuid3(uuid.NAMESPACE_DNS, name))
u = uuid.UUID("12345678-1234-5678-1234-567812345678")
print(u.hex, u.int, u.version, u.variant, u.urn, str(u).upper())
print(uuid.UUID("{12345678-1234-5678-1234-567812345678}") == u, uuid.UUID(bytes=u.bytes) == u, u.fields[0])
ids = sorted(uuid.uuid5(uuid.NAMESPACE_URL, f"https://example.com/items/{i}") for i in range(5))
print([str(i)[:8] for i in ids])
r = uuid.uuid4()
print(r.version, len(str(r)), isinstance(r.int, int))
try:
    uuid.UUID("not-a-uuid")
except ValueError:
    print("ValueError")
