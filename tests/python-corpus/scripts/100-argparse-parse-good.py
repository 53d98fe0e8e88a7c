"""argparse with a realistic CLI definition, parsing several good command lines."""
import argparse

parser = argparse.ArgumentParser(prog="inventory")
parser.add_argument("paths", nargs="*", default=["."])
parser.add_argument("-v", "--verbose", action="count", default=0)
parser.add_argument("-o", "--output", default="-")
parser.add_argument("--format", choices=["csv", "json", "table"], default="table")
parser.add_argument("--limit", type=int, default=10)
parser.add_argument("--tag", action="append", default=[])
parser.add_argument("--dry-run", action="store_true")
parser.add_argument("--no-color", dest="color", action="store_false")
parser.add_argument("--ratio", type=float)
group = parser.add_mutually_exclusive_group()
group.add_argument("--asc", action="store_true")
group.add_argument("--desc", action="store_true")

for argv in [
    [],
    ["data", "-vv", "--format", "json"],
    ["--limit=3", "--tag", "a", "--tag", "b", "x", "y"],
    ["-o", "out.csv", "--dry-run", "--no-color", "--ratio", "0.25", "--desc"],
    ["--", "-weird-name"],
    ["-vvv", "--form", "csv"],
]:
    ns = parser.parse_args(argv)
    print(argv, "->", sorted(vars(ns).items()))
ns, rest = parser.parse_known_args(["a", "--unknown", "1", "-v"])
print(sorted(vars(ns).items()), rest)
