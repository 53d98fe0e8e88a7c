"""Agent job: deep-merge overrides into the base config and write config.merged.json with a changelog."""
import json


def merge(base, over, path="", changes=None):
    changes = [] if changes is None else changes
    out = dict(base)
    for k, v in over.items():
        p = f"{path}.{k}" if path else k
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            out[k] = merge(base[k], v, p, changes)[0]
        elif isinstance(v, list) and isinstance(base.get(k), list):
            extra = [x for x in v if x not in base[k]]
            out[k] = base[k] + extra
            if extra:
                changes.append(f"{p}: added {extra}")
        else:
            if base.get(k) != v:
                changes.append(f"{p}: {json.dumps(base.get(k))} -> {json.dumps(v)}")
            out[k] = v
    return out, changes


base = json.load(open("data/config.json"))
over = json.load(open("data/overrides.json"))
merged, changes = merge(base, over)
with open("config.merged.json", "w") as f:
    json.dump(merged, f, indent=2)
    f.write("\n")
print("\n".join(changes))
print(json.dumps(merged["database"]), merged["features"])
