"""rglob, relative_to, parts and parents, match()."""
from pathlib import Path, PurePosixPath

base = Path("notes")
for p in sorted(base.rglob("*.txt")):
    rel = p.relative_to(base)
    print(rel.as_posix(), rel.parts, rel.parent.as_posix(), len(rel.parents))
print([p.name for p in sorted(base.rglob("*")) if p.is_dir()])
p = PurePosixPath("/srv/app/releases/v1.2/config/settings.prod.ini")
print(p.name, p.stem, p.suffix, p.suffixes, p.parent.name, p.anchor)
print([str(x) for x in p.parents][:3])
print(p.relative_to("/srv/app").as_posix(), p.with_suffix(".json").name, p.with_name("x.ini").as_posix(), p.with_stem("other").name)
print(p.match("*.ini"), p.match("config/*.ini"), p.match("/srv/*.ini"))
print(PurePosixPath("a/b/../c").as_posix(), PurePosixPath("a//b/./c").as_posix(), PurePosixPath("a") / "b" / "c.txt")
print(Path("notes/2024").exists(), Path("notes/2025").exists(), Path("notes/nonl.txt").is_file())
try:
    Path("data/x").relative_to("notes")
except ValueError:
    print("ValueError: not relative")
print(sorted(str(p) for p in Path("mypkg").glob("**/*.py")))
