"""Agent job: parse a Keep-a-Changelog file into JSON and add a new release section."""
import json
import re

text = open("docs/changelog.md").read()
releases = []
for block in re.split(r"^## ", text, flags=re.M)[1:]:
    head, *body = block.splitlines()
    m = re.match(r"\[(?P<version>[\d.]+)\] - (?P<date>\d{4}-\d{2}-\d{2})", head)
    entry = {"version": m["version"], "date": m["date"], "sections": {}}
    section = None
    for line in body:
        if line.startswith("### "):
            section = line[4:].strip()
            entry["sections"][section] = []
        elif line.startswith("- ") and section:
            entry["sections"][section].append(line[2:])
    releases.append(entry)
print(json.dumps(releases, indent=1))
latest = releases[0]["version"].split(".")
new_version = f"{latest[0]}.{latest[1]}.{int(latest[2]) + 1}"
new_section = f"## [{new_version}] - 2024-03-15\n### Fixed\n- Corpus scripts run identically.\n\n"
updated = text.replace("## [", new_section + "## [", 1)
with open("docs/changelog.md", "w") as f:
    f.write(updated)
print(updated.splitlines()[:6])
print({r["version"]: sum(len(v) for v in r["sections"].values()) for r in releases})
