"""Write JSON files with indent, sort_keys and separators, and print them."""
import json
import os

with open("data/users.json") as f:
    users = json.load(f)

active = [u for u in users if u["active"]]
report = {
    "count": len(active),
    "users": {u["name"]: {"roles": sorted(u["roles"]), "score": u["score"]} for u in active},
    "average_score": round(sum(u["score"] for u in active) / len(active), 3),
    "unicode": "naïve café ☕",
}
os.makedirs("build", exist_ok=True)
with open("build/report.json", "w") as f:
    json.dump(report, f, indent=2, sort_keys=True)
    f.write("\n")
with open("build/report.min.json", "w") as f:
    json.dump(report, f, separators=(",", ":"), ensure_ascii=False)
with open("build/report.tab.json", "w") as f:
    json.dump(report, f, indent="\t")

print(open("build/report.json").read(), end="")
print(open("build/report.min.json", encoding="utf-8").read())
print(json.dumps(report["users"]["ada"], indent=4))
print(os.path.getsize("build/report.json"), os.path.getsize("build/report.tab.json"))
