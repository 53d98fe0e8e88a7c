"""Password hashing for a user store: hashlib.pbkdf2_hmac with fixed salts, verified with hmac."""
import hashlib
import hmac
import json

users = {"ada": "correct horse", "brian": "battery staple"}
store = {}
for i, (name, password) in enumerate(sorted(users.items())):
    salt = bytes([i]) * 16
    store[name] = {"salt": salt.hex(), "hash": hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 10_000).hex()}
print(json.dumps(store, indent=1, sort_keys=True))


def verify(name, attempt):
    rec = store[name]
    got = hashlib.pbkdf2_hmac("sha256", attempt.encode(), bytes.fromhex(rec["salt"]), 10_000)
    return hmac.compare_digest(got.hex(), rec["hash"])


print(verify("ada", "correct horse"), verify("ada", "wrong"), verify("brian", "battery staple"))
