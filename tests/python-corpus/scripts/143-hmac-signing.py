"""hmac: signing and verifying webhook payloads with a fixed key."""
import hashlib
import hmac
import json

KEY = b"corpus-secret-key"
payloads = [{"event": "order.created", "id": 1001}, {"event": "order.paid", "id": 1001, "amount": "18.80"}]
signed = []
for p in payloads:
    body = json.dumps(p, sort_keys=True, separators=(",", ":")).encode()
    sig = hmac.new(KEY, body, hashlib.sha256).hexdigest()
    signed.append((body, sig))
    print(body.decode(), sig)
for body, sig in signed:
    expected = hmac.new(KEY, body, "sha256").hexdigest()
    print(hmac.compare_digest(sig, expected), hmac.compare_digest(sig, expected[:-1] + "0"))
h = hmac.new(KEY, digestmod="sha1")
h.update(b"part one ")
h.update(b"part two")
print(h.hexdigest(), h.name, h.digest_size, hmac.new(KEY, b"part one part two", "sha1").hexdigest() == h.hexdigest())
print(hmac.digest(KEY, b"msg", "md5").hex())
