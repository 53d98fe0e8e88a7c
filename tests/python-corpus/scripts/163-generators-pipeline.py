"""Generator pipelines over a log file: lazy parsing, filtering, send(), yield from."""


def read_lines(path):
    with open(path) as f:
        for line in f:
            yield line.rstrip("\n")


def parse(lines):
    for line in lines:
        date, time, level, rest = line.split(None, 3)
        yield {"time": time, "level": level, "rest": rest}


def only(records, *levels):
    return (r for r in records if r["level"] in levels)


pipeline = only(parse(read_lines("data/server.log")), "ERROR", "WARN")
for r in pipeline:
    print(r["time"], r["level"], r["rest"][:40])


def running_average():
    total = count = 0
    avg = None
    while True:
        value = yield avg
        if value is None:
            return count
        total += value
        count += 1
        avg = total / count


g = running_average()
next(g)
print([g.send(v) for v in [10, 20, 60]])
try:
    g.send(None)
except StopIteration as e:
    print("returned", e.value)


def flatten(items):
    for i in items:
        if isinstance(i, list):
            yield from flatten(i)
        else:
            yield i


print(list(flatten([1, [2, [3, [4]], 5], [[6]]])))


def countdown(n):
    try:
        while n:
            yield n
            n -= 1
    finally:
        print("countdown closed at", n)


c = countdown(5)
print(next(c), next(c))
c.close()
print(sum(x * x for x in range(10)), list(zip(*((i, i * i) for i in range(4)))))
