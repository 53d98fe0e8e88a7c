"""Agent job: convert every CSV under data/ to JSON with typed values."""
import csv
import json
import os


def convert(value):
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    if value == "":
        return None
    return value


os.makedirs("json", exist_ok=True)
for name in sorted(os.listdir("data")):
    if not name.endswith(".csv"):
        continue
    with open(os.path.join("data", name), newline="", encoding="utf-8") as f:
        sample = f.read(1024)
        f.seek(0)
        delimiter = ";" if sample.count(";") > sample.count(",") else ","
        rows = [{k: convert(v) for k, v in r.items()} for r in csv.DictReader(f, delimiter=delimiter)]
    out = os.path.join("json", name[:-4] + ".json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=2, ensure_ascii=False)
    print(f"{name}: {len(rows)} rows, columns {list(rows[0])}, delimiter {delimiter!r} -> {out}")
print(open("json/quoted.json").read())
print(sorted(os.listdir("json")))
