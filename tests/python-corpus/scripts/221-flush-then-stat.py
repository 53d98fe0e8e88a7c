"""Progress checks on a file still being written: size and content by path after flush()."""
import json
import os

out = open("export.jsonl", "w")
with open("data/events.jsonl") as src:
    for i, line in enumerate(src, 1):
        out.write(json.dumps({"n": i, **json.loads(line)}, sort_keys=True) + "\n")
        if i % 4 == 0:
            out.flush()
            with open("export.jsonl") as check:
                lines = check.read().count("\n")
            print(f"after {i} events: {lines} lines on disk, size matches: {os.path.getsize('export.jsonl') == out.tell()}")
out.truncate(out.tell() // 2)
out.flush()
print("after truncate:", os.path.getsize("export.jsonl") == out.tell() // 2)
out.close()
print("final size:", os.path.getsize("export.jsonl"))
