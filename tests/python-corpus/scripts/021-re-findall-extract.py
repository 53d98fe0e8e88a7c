"""findall / finditer to extract emails, IPs, key=value pairs and numbers."""
import re

log = open("data/server.log").read()
ips = re.findall(r"ip=(\d+(?:\.\d+){3})", log)
print("unique ips:", sorted(set(ips), key=lambda ip: tuple(map(int, ip.split(".")))))
pairs = re.findall(r"(\w+)=(\S+)", log)
print("keys:", sorted({k for k, _ in pairs}))
users = re.findall(r"user=(\w+)", log)
print("users:", users)

config = open("data/config.json").read()
print("emails:", re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", config))
print("numbers:", [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", "a 1 b -2.5 c 3.0e1 d 40")])
for m in re.finditer(r"\[(\w+)\]", log[:400]):
    print(m.group(1), m.start(), m.end())
print(re.findall(r"(a)(b)?", "ab a ab"))
print(re.findall(r"\b\w{5}\b", "quick brown foxes jumps"))
print(re.fullmatch(r"[A-D]-\d{3}", "B-200") is not None, re.fullmatch(r"[A-D]-\d{3}", "B-2000"))
