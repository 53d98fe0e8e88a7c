"""Subcommands with set_defaults(func=...), like git-style tools."""
import argparse


def cmd_add(args):
    return f"add {args.name} qty={args.qty} tags={args.tags}"


def cmd_rm(args):
    return f"rm {args.names} force={args.force}"


def cmd_list(args):
    return f"list sort={args.sort} reverse={args.reverse}"


parser = argparse.ArgumentParser(prog="stock")
parser.add_argument("--db", default="stock.db")
sub = parser.add_subparsers(dest="command", required=True)
p = sub.add_parser("add")
p.add_argument("name")
p.add_argument("--qty", type=int, default=1)
p.add_argument("--tags", nargs="+", default=[])
p.set_defaults(func=cmd_add)
p = sub.add_parser("rm", aliases=["remove"])
p.add_argument("names", nargs="+")
p.add_argument("-f", "--force", action="store_true")
p.set_defaults(func=cmd_rm)
p = sub.add_parser("list")
p.add_argument("--sort", choices=["name", "qty"], default="name")
p.add_argument("-r", "--reverse", action="store_true")
p.set_defaults(func=cmd_list)

for argv in [["add", "bolt"], ["--db", "x.db", "add", "nut", "--qty", "5", "--tags", "m6", "zinc"],
             ["rm", "a", "b", "-f"], ["remove", "c"], ["list", "--sort", "qty", "-r"]]:
    args = parser.parse_args(argv)
    print(args.command, args.db, "|", args.func(args))
try:
    parser.parse_args([])
except SystemExit as e:
    print("no command ->", e.code)
