"""Modification times: utime with fixed values, sorting by mtime, newer-than checks."""
import os
import time

os.makedirs("stamps", exist_ok=True)
base = 1_700_000_000
for i, name in enumerate(["c.txt", "a.txt", "b.txt", "d.txt"]):
    path = os.path.join("stamps", name)
    with open(path, "w") as f:
        f.write(name)
    os.utime(path, (base + i * 60, base + i * 3600))
by_mtime = sorted(os.listdir("stamps"), key=lambda n: os.path.getmtime(os.path.join("stamps", n)))
print(by_mtime)
for n in sorted(os.listdir("stamps")):
    st = os.stat(os.path.join("stamps", n))
    print(n, int(st.st_mtime), time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(st.st_mtime)))
newest = max(os.listdir("stamps"), key=lambda n: os.stat(os.path.join("stamps", n)).st_mtime)
print("newest:", newest)
os.utime("stamps/a.txt", ns=(base * 10**9, (base + 10) * 10**9 + 5))
print(os.stat("stamps/a.txt").st_mtime_ns % 10**9 in (0, 5), int(os.path.getmtime("stamps/a.txt")) - base)
before = time.time()
with open("stamps/now.txt", "w") as f:
    f.write("x")
print("fresh file is recent:", os.path.getmtime("stamps/now.txt") > before - 3600)
print(time.strftime("%a %d %b %Y", time.gmtime(0)), time.gmtime(86400 * 365).tm_year, time.mktime(time.gmtime(0)) == time.mktime(time.gmtime(0)))
