"""Renaming files by suffix with pathlib: .txt -> .md in a copy of notes."""
import shutil
from pathlib import Path

work = Path("renamed")
shutil.copytree("notes", work)
renamed = []
for p in sorted(work.rglob("*.txt")):
    if p.name.startswith("."):
        continue
    target = p.with_suffix(".md")
    p.rename(target)
    renamed.append(target.relative_to(work).as_posix())
print("renamed:", renamed)
for p in sorted(work.rglob("*")):
    print(("d " if p.is_dir() else "f ") + p.relative_to(work).as_posix())
spaced = work / "photo 1.md"
spaced.rename(work / "photo_1.md")
print(sorted(p.name for p in work.iterdir()))
(work / "2024" / "01" / "meeting.md").replace(work / "meeting.md")
print((work / "meeting.md").read_text().splitlines()[0], (work / "2024/01/meeting.md").exists())
