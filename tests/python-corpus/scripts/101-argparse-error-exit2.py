"""A bad command line: argparse reports on stderr and exits 2."""
import argparse
import sys

parser = argparse.ArgumentParser(prog="tool")
parser.add_argument("--count", type=int, required=True)
parser.add_argument("mode", choices=["fast", "slow"])
print("parsing", flush=True)
try:
    parser.parse_args(["fast", "--count", "x"])
except SystemExit as e:
    print("bad int ->", e.code)
try:
    parser.parse_args(["medium", "--count", "1"])
except SystemExit as e:
    print("bad choice ->", e.code)
try:
    parser.parse_args(["fast"])
except SystemExit as e:
    print("missing required ->", e.code)
ns = parser.parse_args(["slow", "--count", "4"])
print("good:", ns.mode, ns.count)
sys.stdout.flush()
parser.parse_args(sys.argv[1:] + ["--bogus"])
print("not reached")
