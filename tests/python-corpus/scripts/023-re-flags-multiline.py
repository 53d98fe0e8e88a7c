"""Regex flags: MULTILINE, IGNORECASE, DOTALL, VERBOSE, and inline flags."""
import re

md = open("docs/readme.md").read()
print("headings:", re.findall(r"^(#{1,6})\s+(.+)$", md, re.M))
print("no M:", re.findall(r"^#+ (.+)$", md))
print("links:", re.findall(r"\[([^\]]+)\]\(([^)]+)\)", md))
print("code:", re.findall(r"`([^`]+)`", md))
block = re.search(r"## Usage(.*?)## Configuration", md, re.S)
print("usage block:", repr(block.group(1).strip()))
print("usage no S:", re.search(r"## Usage(.*?)## Configuration", md))
print(re.findall(r"python|sqlite", md, re.I))
print(re.findall(r"(?i)python \d+\.\d+", md))
print(re.split(r"\n\s*\n", "para one\nstill one\n\npara two\n   \npara three"))
print(re.split(r"[,;]\s*", "a, b;c ,d", maxsplit=2))
print(re.split(r"(\d)", "a1b2c"))
print(bool(re.search(r"^Install", md)), bool(re.search(r"^Install", md, re.M)))
pat = re.compile(r"\bis\b", re.I | re.M)
print(pat.flags & re.I != 0, len(pat.findall(open("data/words.txt").read())))
