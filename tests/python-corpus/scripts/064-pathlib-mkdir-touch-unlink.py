"""Scaffolding a project layout with pathlib mkdir/touch/unlink/rmdir."""
from pathlib import Path

root = Path("scaffold")
layout = {
    "src/scaffold/__init__.py": '__version__ = "0.1.0"\n',
    "src/scaffold/cli.py": "def main():\n    print('hi')\n",
    "tests/__init__.py": "",
    "tests/test_cli.py": "def test_main():\n    pass\n",
    "README.md": "# scaffold\n",
    ".gitignore": "__pycache__/\n*.pyc\n",
}
for rel, content in layout.items():
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
(root / "docs").mkdir()
(root / "docs" / "index.md").touch()
(root / "TODO").touch()
(root / "TODO").touch(exist_ok=True)
try:
    (root / "TODO").touch(exist_ok=False)
except FileExistsError:
    print("FileExistsError")
try:
    (root / "docs").mkdir()
except FileExistsError:
    print("mkdir FileExistsError")
(root / "TODO").unlink()
(root / "TODO").unlink(missing_ok=True)
for p in sorted(root.rglob("*")):
    print(p.relative_to(root).as_posix() + ("/" if p.is_dir() else ""), p.stat().st_size if p.is_file() else "")
(root / "docs" / "index.md").unlink()
(root / "docs").rmdir()
print(sorted(p.name for p in root.iterdir()))
print(sum(1 for p in root.rglob("*.py")), (root / "src").is_dir())
