"""Lazy streams: chain, islice, count, cycle, repeat, tee, batching by hand."""
import itertools as it

files = ["data/numbers.txt", "data/words.txt"]
lines = it.chain.from_iterable(open(f) for f in files)
print([l.strip()[:10] for l in it.islice(lines, 10, 16)])
print(list(it.islice(it.count(10, 5), 4)), list(it.islice(it.cycle("abc"), 7)))
print(list(it.repeat("x", 3)), list(map(pow, range(5), it.repeat(2))))
a, b = it.tee(range(5))
print(list(a), sum(b))


def batched(iterable, n):
    iterator = iter(iterable)
    while batch := tuple(it.islice(iterator, n)):
        yield batch


print(list(batched(range(10), 4)))
evens = (n for n in it.count() if n % 2 == 0)
squares = (n * n for n in evens)
print(list(it.islice(squares, 5)))
print(list(it.chain("ab", [1, 2], (None,))))
counter = it.count(1)
labels = {name: next(counter) for name in ["alpha", "beta", "gamma"]}
print(labels, next(counter))
print(list(zip(it.count(1), "xyz")))
