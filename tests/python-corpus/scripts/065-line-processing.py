"""Line-oriented processing: CRLF, missing final newline, strip, writelines."""
files = ["notes/windows.txt", "notes/nonl.txt", "data/numbers.txt"]
for name in files:
    with open(name, newline="") as f:
        raw = f.read()
    with open(name) as f:
        lines = f.readlines()
    print(name, repr(raw[-3:]), len(lines), repr(lines[-1]))
with open("notes/windows.txt", "rb") as f:
    print(f.read().count(b"\r\n"))
with open("notes/windows.txt") as f:
    print([l.rstrip("\n") for l in f])
with open("notes/windows.txt", newline="") as f:
    print(f.readlines())
nums = []
with open("data/numbers.txt") as f:
    for line in f:
        line = line.strip()
        if line:
            nums.append(float(line))
with open("sorted_numbers.txt", "w") as f:
    f.writelines(f"{n:g}\n" for n in sorted(nums))
with open("crlf_out.txt", "w", newline="\r\n") as f:
    f.write("one\ntwo\n")
print(open("crlf_out.txt", "rb").read())
print(open("sorted_numbers.txt").read().split())
with open("data/words.txt") as f:
    longest = max(f, key=len)
print(len(longest), longest.split()[0])
