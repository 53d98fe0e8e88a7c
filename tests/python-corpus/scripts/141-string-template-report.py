"""string.Template for a report file, plus string constants and Formatter."""
import string
from datetime import date

tmpl = string.Template(open("report.tmpl").read())
out = tmpl.substitute(name="inventory", date=date(2024, 3, 1).isoformat(), count=7, total="1,234.50")
print(out, end="")
with open("report.txt", "w") as f:
    f.write(out)
print(string.Template("$who likes $what").safe_substitute(who="tim"))
try:
    string.Template("$who likes $what").substitute(who="tim")
except KeyError as e:
    print("KeyError", e)
print(string.Template("cost: $$5 ${x}s").substitute(x="apple"))
print(string.ascii_lowercase, string.digits, string.hexdigits, len(string.punctuation), repr(string.whitespace))
print(string.capwords("hello   world-wide web"))
print([t[1] for t in string.Formatter().parse("{a} and {b!r:>4} then {0}")])
print(sorted(string.Template("$a ${b} $$c $d").get_identifiers()))
