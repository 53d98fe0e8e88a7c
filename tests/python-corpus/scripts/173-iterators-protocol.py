"""Custom iterators and iterables: __iter__/__next__, __getitem__ fallback, __reversed__, __contains__."""


class Pages:
    def __init__(self, items, size):
        self.items, self.size = items, size

    def __iter__(self):
        for i in range(0, len(self.items), self.size):
            yield self.items[i:i + self.size]

    def __len__(self):
        return -(-len(self.items) // self.size)

    def __reversed__(self):
        return reversed(list(self))

    def __contains__(self, item):
        return item in self.items


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1


class Squares:
    def __getitem__(self, i):
        if i >= 5:
            raise IndexError
        return i * i


p = Pages(list("abcdefg"), 3)
print(list(p), len(p), list(reversed(p)), "e" in p, "z" in p)
cd = Countdown(3)
print(list(cd), list(cd))
print(list(Squares()), 9 in Squares(), sum(Squares()))
it = iter([1, 2, 3])
print(next(it), list(it), next(it, "exhausted"))
sentinel_lines = list(iter(open("data/numbers.txt").readline, "0\n"))
print(len(sentinel_lines), sentinel_lines[-1].strip())
print(list(enumerate("abc", start=1)), list(zip("ab", [1, 2], strict=True)), list(map(str.upper, "ab")))
try:
    list(zip("ab", [1], strict=True))
except ValueError:
    print("zip strict ValueError")
print(any(x > 2 for x in [1, 2, 3]), all([]), list(filter(None, [0, 1, "", "a", None])))
