"""Quoted fields, embedded newlines, and writing with different quoting modes."""
import csv
import io

with open("data/quoted.csv", newline="") as f:
    rows = list(csv.reader(f))
for row in rows:
    print(len(row), [repr(c) for c in row])

with open("data/quoted.csv", newline="") as f:
    rows2 = list(csv.reader(f, skipinitialspace=True))
print("skipinitialspace:", repr(rows2[4][2]))

data = [["id", "name", "price"], [1, "Bolt, steel", 0.12], [2, 'Nut "M6"', 0.5], [3, "plain", 3]]
for mode in ("QUOTE_MINIMAL", "QUOTE_ALL", "QUOTE_NONNUMERIC"):
    buf = io.StringIO()
    csv.writer(buf, quoting=getattr(csv, mode)).writerows(data)
    print(mode, repr(buf.getvalue()))

buf = io.StringIO()
csv.writer(buf, delimiter=";", lineterminator="\n", quotechar="'").writerows(data)
print("semicolons", repr(buf.getvalue()))

buf = io.StringIO()
csv.writer(buf, quoting=csv.QUOTE_NONE, escapechar="\\", lineterminator="\n").writerow(["a,b", "c"])
print("escaped", repr(buf.getvalue()))
